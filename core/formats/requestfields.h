// The Request's fields in one table: the name every format keys a field by, its kind, and
// how its value is printed and parsed.
//
// The command line's options, the JSON report's "config", the session file and the window's
// settings all walk this table, so that none of them can leave a field out: a new field of
// the Request is one row here. The embedding overrides are not a row: a map of vectors has
// no one-line spelling, and only sessions and presets carry them (whole, beside the table).
#pragma once

#include "engine/engine.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace attn {

// What a field's value is, for the formats that store numbers and flags as such (JSON, the
// settings). Whatever the kind, print and parse use the command line's text.
enum class FieldKind {
    Text,    // free text: the sentences
    Choice,  // one of an enum's spellings (options.h)
    Integer, // a whole number from `min` to `max`
    Seed,    // a whole number from 0 to 2^64 − 1
    Real,    // a float, printed as the shortest decimal that reads back as it
    Switch,  // on|off
};

struct RequestField {
    std::string name; // "d-model": the option --d-model, the JSON and session key
    FieldKind kind;
    std::string valueName; // "N", "keys|queries|batch": for help texts and messages
    // English, marked QT_TRANSLATE_NOOP("Command line", …) for the help.
    const char* help;
    bool inConfig;              // a member of Request::config (false: the texts)
    long long min = 0, max = 0; // Integer's bounds
    std::string (*print)(const Request&) = nullptr;
    // Sets the field from `text`; throws InputError ("--name must be …") when it is not a
    // value of the field. Checks the value alone; checkConfig checks the fields together.
    void (*parse)(Request&, std::string_view text) = nullptr;
    // The member itself, for the formats that keep the value as a number or a flag (the
    // JSON report, sessions, settings) and leave its range to checkConfig: int for Integer,
    // uint64 for Seed, float for Real, bool for Switch; none for Text and Choice (text).
    std::variant<std::monostate, int Config::*, std::uint64_t Config::*, float Config::*,
                 bool Config::*>
        member = {};
    // Added after the first session format: a session or settings file written before it
    // lacks the key, and the field keeps its default there (the formula of 2017).
    bool addedLater = false;
};

// Every field but the embedding overrides: the texts, then the config's switches in the
// order the JSON report writes them.
[[nodiscard]] const std::vector<RequestField>& requestFields();

// The row named `name`, or nullptr.
[[nodiscard]] const RequestField* findRequestField(std::string_view name);

} // namespace attn
