// The texts gen_mistral_ids.js encodes with a SentencePiece-style tokenizer.json: Qwen's and
// GPT-2's texts (hf_strings.js) and more where SentencePiece-style BPE has its own rules:
// spaces made "▁" and one put before the text, characters the vocabulary lacks spelt by their
// bytes' <0xNN> tokens, <s> and </s> inside a text, texts of nothing much. Characters are
// from Unicode 15.0 or older, which the ICU of Debian 12 (ICU 72) knows.
'use strict';

const sentencePiece = [
    // spaces: the "▁" put before the text, and runs of them
    ['sp leading space', ' hello'],
    ['sp two leading spaces', '  hello'],
    ['sp trailing space', 'hello '],
    ['sp trailing spaces', 'hello   '],
    ['sp spaces inside', 'a    b'],
    ['sp one space', ' '],
    ['sp three spaces', '   '],
    ['sp sixteen spaces', '                x'],
    ['sp forty spaces', '                                        '],
    ['sp space between sentences', 'One.  Two.'],
    ['sp metaspace in text', 'a\u2581b'],
    ['sp metaspace alone', '\u2581'],
    ['sp metaspace and space', '\u2581 hi'],
    ['sp metaspaces', '\u2581\u2581x\u2581'],
    // white space that is not a space: kept as it is, some of it by bytes
    ['sp newline', '\n'],
    ['sp two newlines', '\n\n'],
    ['sp newline between words', 'hello\nworld'],
    ['sp newline and spaces', 'a \n b'],
    ['sp tab', '\t'],
    ['sp tabs before word', '\t\tx'],
    ['sp crlf', 'a\r\nb'],
    ['sp no-break space', 'a\u00A0b'],
    ['sp ideographic space', '\u3000'],
    ['sp zero width space', 'a\u200Bb'],
    ['sp byte order mark', '\uFEFFhello'],
    ['sp vertical tab', 'a\x0Bb'],
    // code, with its indentation
    ['sp python indented', 'def f(x):\n    if x:\n        return 1\n    return 0\n'],
    ['sp c tabs', 'int main() {\n\tif (x) {\n\t\ty();\n\t}\n}\n'],
    ['sp json', '{"a": [1, 2, 3], "b": null}'],
    // digits, one a piece in Llama's and Mistral's vocabularies
    ['sp digits', '1234567890'],
    ['sp decimal', '3.14159'],
    ['sp thousands', '1,000,000'],
    ['sp year and words', 'In 2024 there were 365 days.'],
    // characters the vocabulary may lack: byte fallback
    ['sp emoji', '\u{1F60A}'],
    ['sp emoji skin tone', '\u{1F44D}\u{1F3FD}'],
    ['sp llama emoji', '\u{1F999} llama'],
    ['sp rare han', '\u{20000}\u{2A6D6}'],
    ['sp han and latin', 'Hello, \u4E16\u754C! \u{1F30D}'],
    ['sp korean', '\uC548\uB155\uD558\uC138\uC694'],
    ['sp japanese', '\u3053\u3093\u306B\u3061\u306F\u4E16\u754C'],
    ['sp thai', '\u0E2A\u0E27\u0E31\u0E2A\u0E14\u0E35'],
    ['sp arabic', '\u0645\u0631\u062D\u0628\u0627'],
    ['sp hindi', '\u0928\u092E\u0938\u094D\u0924\u0947'],
    ['sp greek', '\u039A\u03B1\u03BB\u03B7\u03BC\u03AD\u03C1\u03B1'],
    ['sp cyrillic', '\u041F\u0440\u0438\u0432\u0435\u0442'],
    ['sp private use', '\uE000\uF8FF'],
    ['sp last code point', '\u{10FFFF}'],
    ['sp control characters', 'a\x01\x02\x7Fb'],
    ['sp nul', 'a\x00b'],
    ['sp decomposed accent', 'cafe\u0301'],
    ['sp composed accent', 'caf\u00E9'],
    ['sp combining marks', 'a\u0300\u0301\u0302'],
    ['sp mathematical letters', '\u{1D400}\u{1D401}\u{1D402}'],
    ['sp replacement character', '\uFFFD'],
    // byte tokens' spellings and special tokens inside a text
    ['sp byte spelling as text', '<0x0A>'],
    ['sp bos alone', '<s>'],
    ['sp eos alone', '</s>'],
    ['sp unk alone', '<unk>'],
    ['sp bos before word', '<s>hello'],
    ['sp eos after word', 'hello</s>'],
    ['sp bos between words', 'a <s> b'],
    ['sp bos with spaces', '  <s>  x  </s>  '],
    ['sp two bos', '<s><s>'],
    ['sp bos space bos', '<s> <s>'],
    ['sp eos then bos', 'one</s><s>two'],
    ['sp chat', '<s>[INST] What is attention? [/INST] Weights.</s>'],
    ['sp broken tags', '< s > <s <s/> </ s>'],
    ['sp bos in word', 'ab<s>cd'],
    // texts of nothing much
    ['sp empty', ''],
    ['sp one letter', 'a'],
    ['sp one capital', 'A'],
    ['sp one dot', '.'],
    ['sp one digit', '7'],
    ['sp apostrophe', "'"],
    ['sp long repeat', 'ab'.repeat(100)],
    ['sp long word', 'Pneumonoultramicroscopicsilicovolcanoconiosis'],
];

module.exports = [
    ...require('./hf_strings.js'),
    ...sentencePiece.map(([name, text]) => ({ name, text })),
];
