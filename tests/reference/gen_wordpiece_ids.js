#!/usr/bin/env node
// Expected WordPiece ids for tests/core/tst_wordpiecetokenizer.cpp, from npm's
// @huggingface/tokenizers (Apache-2.0, pure JavaScript) reading the test vocabulary's
// tokenizer.json (uncased) and tokenizer_cased.json (tests/data/wordpiece, made by
// gen_wordpiece_vocab.js), on the texts of wordpiece_strings.js.
//
//   mkdir /tmp/hfjs && cd /tmp/hfjs && npm install @huggingface/tokenizers@0.2.0
//   node tests/reference/gen_wordpiece_ids.js /tmp/hfjs/node_modules > tests/reference/wordpiece_ids.json
//
// Its BertNormalizer differs from Hugging Face's Python BertTokenizer and Rust
// BertNormalizer in two places, which the expected ids follow the Python and Rust ones in
// (rows where the library as shipped gives other ids carry "js_ids"):
//   - it looks for CJK ideographs one UTF-16 unit at a time, so it never puts spaces around
//     those outside the Basic Multilingual Plane (U+20000 …): here, one code point at a time;
//   - its control characters are Cc, Cf, Co and Cs, not unassigned code points (Cn): here,
//     every \p{C}, as Python's category(c).startswith("C").
'use strict';
const fs = require('fs');
const path = require('path');
const crypto = require('crypto');

const isChineseChar = cp =>
    (cp >= 0x4E00 && cp <= 0x9FFF) || (cp >= 0x3400 && cp <= 0x4DBF) ||
    (cp >= 0x20000 && cp <= 0x2A6DF) || (cp >= 0x2A700 && cp <= 0x2B73F) ||
    (cp >= 0x2B740 && cp <= 0x2B81F) || (cp >= 0x2B820 && cp <= 0x2CEAF) ||
    (cp >= 0xF900 && cp <= 0xFAFF) || (cp >= 0x2F800 && cp <= 0x2FA1F);

async function main() {
    const modules = process.argv[2];
    if (!modules) {
        console.error('usage: gen_wordpiece_ids.js <node_modules holding @huggingface/tokenizers>');
        process.exit(2);
    }
    const js = await import(path.join(modules, '@huggingface/tokenizers/dist/tokenizers.mjs'));
    const data = path.join(__dirname, '..', 'data', 'wordpiece');
    const variants = ['tokenizer.json', 'tokenizer_cased.json'].map(name => {
        const text = fs.readFileSync(path.join(data, name));
        return { name, text, json: JSON.parse(text) };
    });
    const strings = require('./wordpiece_strings.js');
    if (new Set(strings.map(s => s.name)).size !== strings.length)
        throw new Error('two strings have the same name');
    // the ids as shipped, before the patch below (which changes the class's methods)
    const shipped = variants.map(v => {
        const tokenizer = new js.Tokenizer(v.json, {});
        return strings.map(s => tokenizer.encode(s.text).ids);
    });

    const normalizer = js.BertNormalizer.prototype;
    normalizer.tokenize_chinese_chars = function (text) {
        let out = '';
        for (const c of text)
            out += isChineseChar(c.codePointAt(0)) ? ` ${c} ` : c;
        return out;
    };
    normalizer.is_control = function (c) {
        return c !== '\t' && c !== '\n' && c !== '\r' && /^\p{C}$/u.test(c);
    };
    const patched = variants.map(v => new js.Tokenizer(v.json, {}));

    const cases = [];
    variants.forEach((variant, v) => {
        const lowercase = variant.json.normalizer.lowercase;
        strings.forEach((s, i) => {
            const row = { name: s.name, lowercase, text: s.text, ids: patched[v].encode(s.text).ids };
            const jsIds = shipped[v][i];
            if (JSON.stringify(jsIds) !== JSON.stringify(row.ids))
                row.js_ids = jsIds;
            cases.push(row);
        });
    });

    // Every character outside printable ASCII as a \u escape (see gen_gpt2_ids.js).
    const asciiJson = value => JSON.stringify(value, null, 1).replace(
        /[^\x20-\x7e\n]/g, c => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'));
    process.stdout.write(asciiJson({
        generator: 'tests/reference/gen_wordpiece_ids.js',
        source: '@huggingface/tokenizers 0.2.0, its BertNormalizer as Python\'s and Rust\'s ' +
                '(CJK by code point, every \\p{C} dropped); rows where it differs as shipped ' +
                'carry js_ids',
        vocab_txt_sha256: crypto.createHash('sha256')
                              .update(fs.readFileSync(path.join(data, 'vocab.txt'))).digest('hex'),
        node_unicode: process.versions.unicode,
        cases,
    }) + '\n');
}

main().catch(error => { console.error(error); process.exit(1); });
