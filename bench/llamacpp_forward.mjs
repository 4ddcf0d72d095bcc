#!/usr/bin/env node
// llama.cpp's forward over T tokens of a GGUF file, for bench/compare_llamacpp.py (bench only:
// no test or CI runs it). llama.cpp through npm's node-llama-cpp (MIT), whose prebuilt CPU
// binary (@node-llama-cpp/linux-x64) is llama.cpp's libllama; the versions measured are
// pinned in bench/llamacpp/package.json (node-llama-cpp 3.22.1 and its linux-x64 binary
// 3.22.1, whose build metadata names llama.cpp's release "v0.5.0"; on an x64 CPU ggml loads
// the libggml-cpu variant of its features, e.g. sapphirerapids):
//
//   (cd bench/llamacpp && NODE_LLAMA_CPP_SKIP_DOWNLOAD=true npm install)
//   node bench/llamacpp_forward.mjs FILE.gguf T THREADS REPEATS [none|last]
//
// node-llama-cpp is found in bench/llamacpp/node_modules, else in a folder of NODE_PATH.
//
// What is timed: LlamaContextSequence.evaluateWithoutGeneratingNewTokens(ids), the T ids as
// one batch (batchSize ≥ T, so one llama_decode of one micro-batch) from position 0, nothing
// sampled, and with no logits asked for (every token's output flag off, so llama.cpp's
// graph drops every row before the last layer's FFN and runs no output head: the hidden
// states only, as AttnScope's forward, which leaves the head to predictions()). With "last"
// it is controlledEvaluate instead, asking the last token's logits (one row of the head, as
// llama.cpp's own prompt processing does). The sequence's KV cache is cleared
// (clearHistory: llama_memory_seq_rm) before each evaluation, outside the time. One
// evaluation first as a warm-up, asking the last token's logits to check they are finite.
// Prints one JSON line per repeat ({"repeat", "ms"}) and a last summary line.
import fs from 'node:fs';
import path from 'node:path';
import {fileURLToPath, pathToFileURL} from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

function findNodeLlamaCpp() {
    const folders = [path.join(here, 'llamacpp', 'node_modules'),
                     ...(process.env.NODE_PATH ?? '').split(path.delimiter).filter(Boolean)];
    for (const folder of folders) {
        const dir = path.join(folder, 'node-llama-cpp');
        if (fs.existsSync(path.join(dir, 'package.json')))
            return dir;
    }
    throw new Error('node-llama-cpp not found in bench/llamacpp/node_modules nor in NODE_PATH ' +
                    '(npm install in bench/llamacpp)');
}

function ids(T, vocabulary) {
    // Fixed ids, as attnscope_ggufrun's: (t · 7919) mod the vocabulary.
    return Array.from({length: T}, (_, t) => (t * 7919) % vocabulary);
}

async function main() {
    const [file, tArg, threadsArg, repeatsArg, logitsArg = 'none'] = process.argv.slice(2);
    if (!file || !tArg || !threadsArg || !repeatsArg || !['none', 'last'].includes(logitsArg)) {
        console.error('usage: llamacpp_forward.mjs FILE.gguf T THREADS REPEATS [none|last]');
        process.exit(2);
    }
    const T = Number(tArg), threads = Number(threadsArg), repeats = Number(repeatsArg);
    const dir = findNodeLlamaCpp();
    const version = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')).version;
    const nlc = await import(pathToFileURL(path.join(dir, 'dist', 'index.js')).href);
    const llama = await nlc.getLlama({gpu: false, build: 'never', logLevel: 'error',
                                      maxThreads: threads});
    const model = await llama.loadModel({modelPath: file, gpuLayers: 0});
    const vocabulary = model.fileInsights.totalVocabSize ?? model.tokens.count ?? 151936;
    // contextSize T + 1: node-llama-cpp keeps one cell free.
    const context = await model.createContext({
        contextSize: T + 1, batchSize: T, sequences: 1, flashAttention: false,
        threads: {ideal: threads, min: threads}});
    const sequence = context.getSequence();
    const tokens = ids(T, vocabulary);
    // The last token's logits: every one (warm-up) or only the largest (timed, "last").
    const lastLogits = async (every) => {
        const logits = every ? true : {filter: {tokens: [], includeMax: true}};
        const items = tokens.map((id, i) => i + 1 < T ? id : [id, {generateNext: {logits}}]);
        const out = await sequence.controlledEvaluate(items);
        return out[T - 1]?.next?.logits;
    };

    // Warm-up, with the last token's logits checked.
    await sequence.clearHistory();
    const logits = await lastLogits(true);
    const finite = logits != null && logits.size === vocabulary &&
        [...logits.values()].every(Number.isFinite);

    const times = [];
    for (let r = 0; r < repeats; ++r) {
        await sequence.clearHistory();
        const start = process.hrtime.bigint();
        if (logitsArg === 'last')
            await lastLogits(false);
        else
            await sequence.evaluateWithoutGeneratingNewTokens(tokens);
        const ms = Number(process.hrtime.bigint() - start) / 1e6;
        if (sequence.nextTokenIndex !== T)
            throw new Error(`evaluated ${sequence.nextTokenIndex} tokens, not ${T}`);
        times.push(ms);
        console.log(JSON.stringify({repeat: r, ms: +ms.toFixed(2)}));
    }
    const sorted = [...times].sort((a, b) => a - b);
    const median = sorted.length % 2 ? sorted[(sorted.length - 1) / 2]
        : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
    console.log(JSON.stringify({
        summary: true, file: path.basename(file), T, threads: context.currentThreads ?? threads,
        logits: logitsArg, ms: times.map(t => +t.toFixed(2)), median_ms: +median.toFixed(2),
        warmup_last_logits_finite: finite,
        node_llama_cpp: version, llama_cpp: llama.llamaCppRelease.release,
        build: llama.buildType, context_size: context.contextSize, batch_size: context.batchSize,
    }));
    await context.dispose();
    await model.dispose();
    await llama.dispose();
}

main().catch((error) => {
    console.error(error);
    process.exit(1);
});
