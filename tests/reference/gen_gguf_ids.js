#!/usr/bin/env node
// Expected token ids of GGUF vocabularies for tests/core/tst_gguftokenizer.cpp, from llama.cpp
// itself: npm's node-llama-cpp (MIT), whose prebuilt CPU binary (@node-llama-cpp/linux-x64)
// is llama.cpp's libllama. It reads the vocabulary-only files gen_gguf_vocab.py writes
// (tests/data/gguf/<name>.gguf.zip), unzipped into a folder:
//
//   mkdir /tmp/nlc && cd /tmp/nlc && npm init -y && \
//       NODE_LLAMA_CPP_SKIP_DOWNLOAD=true npm install node-llama-cpp@3.22.1
//   mkdir gguf && (cd gguf && for f in <repo>/tests/data/gguf/*.gguf.zip; do unzip -o "$f"; done)
//   NODE_LLAMA_CPP_SKIP_DOWNLOAD=true node tests/reference/gen_gguf_ids.js \
//       /tmp/nlc/node_modules /tmp/nlc/gguf > tests/reference/gguf_ids.json
//
// What is asked of llama.cpp: node-llama-cpp's LlamaModel.tokenize(text, true) returns [] for
// "" and otherwise calls its addon's AddonModel::Tokenize, which is
// common_tokenize(vocab, text, /*add_special=*/false, /*parse_special=*/true), that is
// llama_tokenize with add_special false (no BOS, no EOS) and parse_special true (control,
// user-defined and unknown tokens written in the text are found whole). So "ids" are without
// BOS. Whether llama.cpp puts BOS (EOS) before (after) a text when add_special is true is
// llama_vocab_get_add_bos (_eos), which node-llama-cpp gives as
// model.tokens.shouldPrependBosToken (shouldAppendEosToken), with the id model.tokens.bos
// (eos): "add_bos"/"bos" ("add_eos"/"eos") per file. llama_tokenize with add_special puts the
// BOS before every text, the empty one too.
//
// The texts: every text of qwen3_ids.json and mistral_ids.json (once, with its first name),
// then the rows of EXTRA below.
'use strict';
const fs = require('fs');
const path = require('path');

const FILES = ['qwen3-vocab', 'mistral-vocab', 'gpt2-vocab'];

const EXTRA = [
    ['x chinese cat sentence', '猫坐在垫子上，它很开心。'],
    ['x emoji', '🙂🚀 ok 👍'],
    ['x mixed scripts', 'Hello 世界 Привет مرحبا नमस्ते 🌍'],
    ['x digits', '1234567'],
    ['x digits spaced', '1 12 123 1234 12345'],
    ['x contraction upper', "IT'S"],
    ['x leading spaces', '   leading'],
    ['x trailing spaces', 'trailing   '],
    ['x multiple spaces', 'a  b   c    d'],
    ['x newlines and tabs', 'one\ntwo\n\nthree\tfour\t\tfive'],
    ['x chat template', '<|im_start|>user\nhi<|im_end|>'],
    ['x chat template spaced', '<|im_start|> user\n hi <|im_end|>\n'],
    ['x think', '<think>\n</think>\n\nok'],
    ['x bos written', '<s>'],
    ['x bos written in text', 'Hello <s> world'],
    ['x eos written', 'end</s>'],
    ['x unknown written', 'a<unk>b'],
    ['x end of text written', '<|endoftext|>'],
    ['x end of text in text', 'one<|endoftext|> two'],
    ['x empty', ''],
];

function texts() {
    const seen = new Set();
    const rows = [];
    const add = (name, text) => {
        if (seen.has(text))
            return;
        seen.add(text);
        rows.push([name, text]);
    };
    for (const file of ['qwen3_ids.json', 'mistral_ids.json'])
        for (const c of JSON.parse(fs.readFileSync(path.join(__dirname, file), 'utf8')).cases)
            add(c.name, c.text);
    for (const [name, text] of EXTRA)
        add(name, text);
    return rows;
}

async function main() {
    const [modules, folder] = process.argv.slice(2);
    if (!modules || !folder) {
        console.error('usage: gen_gguf_ids.js <node_modules> <folder of the unzipped .gguf files>');
        process.exit(2);
    }
    const nlc = await import(path.join(modules, 'node-llama-cpp', 'dist', 'index.js'));
    const version = JSON.parse(
        fs.readFileSync(path.join(modules, 'node-llama-cpp', 'package.json'), 'utf8')).version;
    const llama = await nlc.getLlama({gpu: false, build: 'never', logLevel: 'error'});
    const rows = texts();
    const out = [];
    for (const name of FILES) {
        const model = await llama.loadModel(
            {modelPath: path.join(folder, name + '.gguf'), vocabOnly: true});
        const t = model.tokens;
        const cases = rows.map(([caseName, text]) => {
            const ids = model.tokenize(text, true);
            // llama.cpp's detokenizer, for a reader of the file: rows where it does not give
            // back the text carry it (GPT-2's clean-up of a space before punctuation and "'s",
            // SentencePiece's space after a control token, "▁" written as text).
            const back = model.detokenize(ids, true);
            const row = {name: caseName, text, ids};
            if (back !== text)
                row.detokenized = back;
            return row;
        });
        out.push({
            file: `tests/data/gguf/${name}.gguf.zip`,
            add_bos: t.shouldPrependBosToken, bos: t.bos ?? null,
            add_eos: t.shouldAppendEosToken, eos: t.eos ?? null,
            cases,
        });
        await model.dispose();
    }
    // One row a line, every character outside printable ASCII as a \u escape (as
    // gen_hf_ids.js writes): a raw U+FEFF inside a string does not reach the test through
    // QJsonDocument.
    const json = value => JSON.stringify(value).replace(
        /[^\x20-\x7e]/g, c => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'));
    const lines = [
        '{',
        ` "generator": "tests/reference/gen_gguf_ids.js",`,
        ` "source": ${json(`node-llama-cpp ${version}, llama.cpp ${llama.llamaCppRelease.release} (${llama.buildType} binary): llama_tokenize(add_special false, parse_special true)`)},`,
        ' "vocabularies": [',
    ];
    out.forEach((v, vi) => {
        lines.push('  {');
        for (const key of ['file', 'add_bos', 'bos', 'add_eos', 'eos'])
            lines.push(`   ${json(key)}: ${json(v[key])},`);
        lines.push('   "cases": [');
        v.cases.forEach((c, i) => lines.push('    ' + json(c) + (i + 1 < v.cases.length ? ',' : '')));
        lines.push('   ]');
        lines.push('  }' + (vi + 1 < out.length ? ',' : ''));
    });
    lines.push(' ]', '}');
    process.stdout.write(lines.join('\n') + '\n');
}

main().catch((error) => {
    console.error(error);
    process.exit(1);
});
