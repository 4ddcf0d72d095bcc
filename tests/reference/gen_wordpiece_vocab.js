#!/usr/bin/env node
// A small BERT vocabulary for WordPieceTokenizer's tests (tests/core/tst_wordpiecetokenizer.cpp),
// made the same way every time (no randomness, no package): the special tokens, ten
// [unusedN], ASCII punctuation and digits, letters (with their "##" continuations), accented
// and Greek letters, Chinese and Japanese punctuation, common Chinese characters, English
// words of the test texts and common suffixes, every two-letter "##" piece. It writes, into
// tests/data/wordpiece/:
//   vocab.txt              one token a line, id = line number
//   tokenizer_config.json  do_lower_case true (bert-base-uncased's casing)
//   tokenizer.json         the same tokenizer for @huggingface/tokenizers (BertNormalizer
//                          lower-casing, BertPreTokenizer, WordPiece, [CLS] $A [SEP])
//   tokenizer_cased.json   the cased variant (do_lower_case false: no lower-casing, no
//                          accent stripping), which the tests read with that config
//
//   node tests/reference/gen_wordpiece_vocab.js
'use strict';
const fs = require('fs');
const path = require('path');

const specials = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'];
const tokens = [specials[0]];
for (let i = 0; i < 10; ++i)
    tokens.push(`[unused${i}]`);
tokens.push(...specials.slice(1));

const seen = new Set(tokens);
const add = token => {
    if (token.length > 0 && !seen.has(token)) {
        seen.add(token);
        tokens.push(token);
    }
};
const addWithContinuation = token => {
    add(token);
    add('##' + token);
};
const range = (first, last) => {
    const out = [];
    for (let c = first; c <= last; ++c)
        out.push(String.fromCodePoint(c));
    return out;
};

// ASCII punctuation and symbols, then digits and letters with their continuations
for (const c of range(0x21, 0x7e))
    if (!/[0-9A-Za-z]/.test(c))
        add(c);
for (const c of [...range(0x30, 0x39), ...range(0x61, 0x7a), ...range(0x41, 0x5a)])
    addWithContinuation(c);
// Latin-1 and Latin Extended-A letters (accented, for the cased variant), Greek
for (const c of [...range(0xc0, 0xff), ...range(0x100, 0x17f)])
    if (/\p{L}/u.test(c))
        addWithContinuation(c);
for (const c of range(0x3b1, 0x3c9))
    addWithContinuation(c);
for (const c of range(0x391, 0x3a9))
    if (/\p{L}/u.test(c))
        add(c);
// Unicode punctuation and symbols the tests meet
for (const c of '，。！？、：；“”‘’《》「」『』（）【】…—·～¡¿«»–€£¥©®°±×÷→←↑↓∞≈≠≤≥∑∫℃①②③')
    add(c);

// Common Chinese characters (simplified and some traditional), one token each, and a few
// "##" continuations as bert-base-chinese has them
const hanzi =
    '的一是不了人我在有他这个们中来上大为和国地到以说时要就出也得里后自会家可下而过天去能对小' +
    '多然于心学么之都好看起发当没成只如事把还用第样道想作种开美总从无情己面最女但现前些所同日手' +
    '又行意动方期它头经长儿回位分爱老因很给名法间斯知世什两次使身者被高已亲其进此话常与活正感见' +
    '明问力理尔点文几定本公特做外孩相西果走将月十实向声车全信重三机工物气每并别真打太新比才便夫' +
    '再书部水像眼等体却加电主界门利海受听表德少克代员许稜先口由死安写性马光白或住难望教命花结乐' +
    '色更拉东神记处让母父应直字场平报友关放至张认接告入笑内英军候民岁往何度山觉路带万男边风解叫' +
    '任金快原吃妈变通师立象数四失满战远格士音轻目条呢病始达深完今提求清王化空业思切怎非找片罗钱' +
    '紶吗语元喜曾离飞科言干流欢约各即指合反题必该论交终林请医晚制球决窢传画保读运及则房早院量苦' +
    '火布品近坐产答星精视五连司巴奇管类未朋且婚台夜青北队久乎越观落尽形影红爸百令周吧识步希亚术' +
    '留市半热送兴造谈容极随演收首根讲整式取照办强石古华諣拿计您装似足双妻尼转诉米称丽客南领节衣' +
    '站黑刻统断福城故历惊脸选包紧争另建维绝树系伤示愿持千史谁准联妇纪基买志静阿诗独复痛消社算义' +
    '竟确酒需单治卡幸兰念举仅钟怕共毛句息功官待究跟穿室易游程号居考突皮哪费倒价图具刚脑永歌响商' +
    '礼细专黄块脚味灵改据般破引食仍存众注笔甚某沉血备习校默务土微娘须试怀料调广蜖苏显赛查密议底' +
    '列富梦错座参八除跑亮假印设线温虽掉京初养香停际致阳纸李纳验助激够严证帝饭忘趣支春集丈木研班' +
    '普导顿睡展跳获艺六波察群皇段急庭创区奥器谢弟店否害草排背止组州朝封睛板角况曲馆育忙质河续哥' +
    '呼若推境遇雨标姐充围案伦护冷警贝著雪索剧啊船险烟依斗值帮汉慢佛肯闻唱沙局伯族低玩资屋击速顾' +
    '泪洲团圣旁堂兵七露园牛哭旅街劳型烈姑陈莫鱼异抱宝权鲁简态级票怪寻杀律胜份汽右洋范床舞秘午登' +
    '楼贵吸责例追较职属渐左录丝牙党继托赶章智冲叶胡吉卖坚喝肉遗救修松临藏担戏善卫药悲敢靠伊村戴' +
    '词森耳差短祖云规窗散迷油旧适乡架恩投弹铁博雷府压超负勒杂醒洗采毫嘴毕九冰既状乱景席珍童顶派' +
    '素脱农疑练野按犯拍征坏骨余承置臓彩灯巨琴免环姆暗换技翻束增忍餐洛塞缺忆判欧层付阵玛批岛项狗' +
    '休懂武革良恶恋委拥娜妙探呀营退摇弄桌熟诺宣银势奖宫忽套康供优课鸟喊降夏困刘罪亡鞋健模败伴守' +
    '挥鲜财孤枪禁恐伙杰迹妹藸遍盖副坦牌江顺秋萨菜划授归浪听凡预奶雄升碃编典袋莱含盛济蒙棋端腿招' +
    '释介烧误们喜欢这个产品猫垫子因为它累注意力机制核心你今天吃饭红楼梦中国古典小说苹果香蕉橘' +
    '子等好吧画蛇添足学而时习之不亦说乎們歡這個產麼愛處理人工智能领域重要方向研究实现计算机用进有' +
    '效通信各种理论和方法他明见年月日气温一二三四五六七八九十百千万第行列描述张图让想答案哈';
for (const c of hanzi)
    add(c);
for (const c of '的了是我不人在他有这个们')
    add('##' + c);
// Japanese kana and Korean syllables the tests meet
for (const c of 'こんにちはカタカナひらがなですの한국어안녕하세요')
    add(c);

// English words and pieces (lower case; the cased variant meets their capitals as [UNK] or
// as letters)
const words = (
    'the a an and or of to in on at for with by from is are was were be been being it its ' +
    'this that these those i you he she we they me him her us them my your his our their ' +
    'cat cats dog sat mat hello world quick brown fox jumps over lazy attention need all ' +
    'what why does do did work works worked model models token tokens word words piece ' +
    'transformer transformers bert language natural processing learning deep neural network ' +
    'networks sequence dominant transduction based complex recurrent convolutional said ' +
    'hamlet not state art self because tired very good bad new old one two three four five ' +
    'six seven eight nine ten hundred thousand first second third last end line next code ' +
    'def return print int sum for if else while true false none null python java script ' +
    'un able aff play read write run runs running jump jumped walk walking talk talked ' +
    'happy happiness kind kindness nation national international united states china ' +
    'beijing shanghai paris france cafe resume naive zurich munich tokyo ' +
    'mask masked predict prediction head heads layer layers query key value softmax ' +
    'https http www com org wiki wikipedia zh en html json data text test tests testing ' +
    'can can\'t don\'t won\'t it\'s there here where when who how much many more most ' +
    'some any each every other another such only own same so than too just now then also'
).split(/\s+/);
for (const w of words)
    add(w);
for (const piece of ['s', 'es', 'ed', 'ing', 'er', 'ers', 'est', 'ly', 'ness', 'ment', 'ments',
                     'tion', 'tions', 'able', 'ible', 'aff', 'ful', 'less', 'ity', 'al', 'ize',
                     'ise', 'ism', 'ist', 'ous', 'ive', 'ic', 'ical', 'ation', 'ations', 'former',
                     'formers', 'piece', 'pieces', 'word', 'words', 'ize', 'ized', '00', '000',
                     '10', '20', '26', 'th', 'nd', 'rd', 'st', 'é', 'ès', 'ée'])
    add('##' + piece);
for (const w of ['The', 'Hello', 'World', 'BERT', 'Paris', 'China', 'Beijing', 'I', 'He',
                 'She', 'We', 'They', 'It', 'This', 'What', 'Python', 'Zürich', 'München',
                 'Café', 'café', 'résumé', 'naïve', 'Ångström', 'Über', 'über', 'élève',
                 '10', '100', '2026', '1000', '42', '3', '14'])
    add(w);
// Every two-letter continuation, so that most lower-case words come out in pieces
for (const a of range(0x61, 0x7a))
    for (const b of range(0x61, 0x7a))
        add('##' + a + b);

const out = path.join(__dirname, '..', 'data', 'wordpiece');
fs.mkdirSync(out, { recursive: true });
fs.writeFileSync(path.join(out, 'vocab.txt'), tokens.join('\n') + '\n');
fs.writeFileSync(path.join(out, 'tokenizer_config.json'),
                 JSON.stringify({ do_lower_case: true, model_max_length: 512 }, null, 2) + '\n');

const vocab = Object.fromEntries(tokens.map((t, id) => [t, id]));
const tokenizerJson = lowercase => ({
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: specials.map(content => ({
        id: vocab[content], content, single_word: false, lstrip: false, rstrip: false,
        normalized: false, special: true,
    })),
    normalizer: {
        type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true,
        strip_accents: null, lowercase,
    },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
        type: 'TemplateProcessing',
        single: [{ SpecialToken: { id: '[CLS]', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } },
                 { SpecialToken: { id: '[SEP]', type_id: 0 } }],
        pair: [{ SpecialToken: { id: '[CLS]', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } },
               { SpecialToken: { id: '[SEP]', type_id: 0 } }, { Sequence: { id: 'B', type_id: 1 } },
               { SpecialToken: { id: '[SEP]', type_id: 1 } }],
        special_tokens: {
            '[CLS]': { id: '[CLS]', ids: [vocab['[CLS]']], tokens: ['[CLS]'] },
            '[SEP]': { id: '[SEP]', ids: [vocab['[SEP]']], tokens: ['[SEP]'] },
        },
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: {
        type: 'WordPiece', unk_token: '[UNK]', continuing_subword_prefix: '##',
        max_input_chars_per_word: 100, vocab,
    },
});
fs.writeFileSync(path.join(out, 'tokenizer.json'), JSON.stringify(tokenizerJson(true)) + '\n');
fs.writeFileSync(path.join(out, 'tokenizer_cased.json'), JSON.stringify(tokenizerJson(false)) + '\n');
console.log(`${tokens.length} tokens written to ${out}`);
