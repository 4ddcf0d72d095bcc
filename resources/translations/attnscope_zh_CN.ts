<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>AttentionFile</name>
    <message>
        <source>Cannot Open Attention File</source>
        <translation>无法打开注意力文件</translation>
    </message>
    <message>
        <source>Attention files (*.npz *.npy *.safetensors)</source>
        <translation>注意力文件 (*.npz *.npy *.safetensors)</translation>
    </message>
    <message>
        <source>All files (*)</source>
        <translation>所有文件 (*)</translation>
    </message>
    <message>
        <source>%1: not enough memory to open it.</source>
        <translation>%1：内存不足，无法打开。</translation>
    </message>
    <message>
        <source>Open Attention</source>
        <translation>打开注意力文件</translation>
    </message>
</context>
<context>
    <name>Colormap</name>
    <message>
        <source>Viridis</source>
        <translation>Viridis</translation>
    </message>
    <message>
        <source>Magma</source>
        <translation>Magma</translation>
    </message>
    <message>
        <source>Inferno</source>
        <translation>Inferno</translation>
    </message>
    <message>
        <source>Cividis</source>
        <translation>Cividis</translation>
    </message>
    <message>
        <source>Grey</source>
        <translation>灰度</translation>
    </message>
    <message>
        <source>Diverging (blue–white–red)</source>
        <translation>发散（蓝–白–红）</translation>
    </message>
</context>
<context>
    <name>Command line</name>
    <message>
        <source>the sentence; repeat it, or separate lines with newlines, for a batch of several</source>
        <translation>句子；要组成多条序列的批次，可重复本选项，或用换行分隔各行</translation>
    </message>
    <message>
        <source>cross-attention: keys and values from this text, queries from --text (one line, or one per line of --text)</source>
        <translation>交叉注意力：键和值来自这段文本，查询来自 --text（一行，或与 --text 的每一行一一对应）</translation>
    </message>
    <message>
        <source>self: Q, K, V from --text; cross: Q from --text, K and V from --cross-text</source>
        <translation>self：Q、K、V 都来自 --text；cross：Q 来自 --text，K 和 V 来自 --cross-text</translation>
    </message>
    <message>
        <source>how text becomes tokens (auto: ICU words, CJK by dictionary)</source>
        <translation>文本如何切成词元（auto：ICU 分词，中日韩文字按词典切分）</translation>
    </message>
    <message>
        <source>start from a ready-made configuration (see &apos;attnscope presets&apos;)</source>
        <translation>从一个现成的配置出发（见 &apos;attnscope presets&apos;）</translation>
    </message>
    <message>
        <source>C = d_model, from 1 to 4096</source>
        <translation>C = d_model，1 到 4096</translation>
    </message>
    <message>
        <source>H, the number of heads; must divide d_model</source>
        <translation>H，头数；必须能整除 d_model</translation>
    </message>
    <message>
        <source>torch.manual_seed(N), 0 to 2^64-1</source>
        <translation>torch.manual_seed(N)，0 到 2^64-1</translation>
    </message>
    <message>
        <source>table: one vector per token; torch: x = torch.randn(B, T, C)</source>
        <translation>table：每个词元一个向量；torch：x = torch.randn(B, T, C)</translation>
    </message>
    <message>
        <source>multiply QKᵀ by 1/√d_k, 1 or 1/√d_model</source>
        <translation>QKᵀ 乘以 1/√d_k、1 或 1/√d_model</translation>
    </message>
    <message>
        <source>divide the logits by τ &gt; 0</source>
        <translation>logit 除以 τ（τ &gt; 0）</translation>
    </message>
    <message>
        <source>softmax over keys (dim=-1), queries (dim=-2) or batch (dim=0)</source>
        <translation>softmax 沿键（dim=-1）、查询（dim=-2）或批次（dim=0）</translation>
    </message>
    <message>
        <source>causal: query i sees keys j &lt;= i (torch.triu(..., 1))</source>
        <translation>causal：查询 i 只能看到键 j &lt;= i（torch.triu(..., 1)）</translation>
    </message>
    <message>
        <source>value for masked logits</source>
        <translation>被掩盖的 logit 填入的值</translation>
    </message>
    <message>
        <source>mask the logits before the softmax, or the weights after it</source>
        <translation>在 softmax 之前掩盖 logit，或在之后掩盖权重</translation>
    </message>
    <message>
        <source>view(B,T,H,d_k).transpose(1,2), or the buggy view(B,H,T,d_k)</source>
        <translation>view(B,T,H,d_k).transpose(1,2)，或有错误的 view(B,H,T,d_k)</translation>
    </message>
    <message>
        <source>mask &lt;pad&gt; tokens of shorter sequences</source>
        <translation>掩盖较短序列的 &lt;pad&gt; 词元</translation>
    </message>
    <message>
        <source>write every number as JSON (&apos;-&apos; = standard output)</source>
        <translation>把所有数值写成 JSON（&apos;-&apos; 表示标准输出）</translation>
    </message>
    <message>
        <source>the language of the report&apos;s words and warnings (default en); not of --json</source>
        <translation>报告文字和警告的语言（默认 en）；不影响 --json</translation>
    </message>
    <message>
        <source>the language of the lines about the presets (default en)</source>
        <translation>预设说明的语言（默认 en）</translation>
    </message>
    <message>
        <source>options of compute:</source>
        <translation>compute 的选项：</translation>
    </message>
    <message>
        <source>options of presets:</source>
        <translation>presets 的选项：</translation>
    </message>
    <message>
        <source>compute attention; print a report (or --json)</source>
        <translation>计算注意力；打印报告（或 --json）</translation>
    </message>
    <message>
        <source>write a figure (png, svg, pdf) or the numbers (csv, npy, json) without opening the window</source>
        <translation>不打开窗口，写出图片（png、svg、pdf）或数值（csv、npy、json）</translation>
    </message>
    <message>
        <source>the same text at d_k = 16 … 1024, with and without the 1/√d_k scaling (exercise 1): a table, JSON or the charts as a figure</source>
        <translation>同一段文本在 d_k = 16 … 1024 下、有无 1/√d_k 缩放各算一次（练习 1）：输出表格、JSON 或图表</translation>
    </message>
    <message>
        <source>the textbook formula (A), your switches (B) and B − A side by side as a figure (png, svg, pdf)</source>
        <translation>标准公式（A）、你的开关设置（B）和 B − A 并排成一张图（png、svg、pdf）</translation>
    </message>
    <message>
        <source>one head&apos;s pipeline, X to the output, as Step by Step shows it, as a figure (png, svg, pdf)</source>
        <translation>一个头从 X 到输出的整条流水线，如“逐步计算”所示，输出为图片（png、svg、pdf）</translation>
    </message>
    <message>
        <source>list the ready-made configurations</source>
        <translation>列出现成的配置</translation>
    </message>
    <message>
        <source>one command&apos;s usage and options (also: attnscope help COMMAND)</source>
        <translation>单个命令的用法和选项（也可用：attnscope help COMMAND）</translation>
    </message>
    <message>
        <source>this text; every help in English (the default) or in Chinese</source>
        <translation>本说明；每种帮助都可用英文（默认）或中文显示</translation>
    </message>
    <message>
        <source>the version</source>
        <translation>版本号</translation>
    </message>
    <message>
        <source>AttnScope %1: softmax(QKᵀ/√d_k + M)·V for your own sentence, head by head.</source>
        <translation>AttnScope %1：用你自己的句子，逐个头地计算 softmax(QKᵀ/√d_k + M)·V。</translation>
    </message>
    <message>
        <source>usage:</source>
        <translation>用法：</translation>
    </message>
    <message>
        <source>example:</source>
        <translation>示例：</translation>
    </message>
    <message>
        <source>the language of the help (default en)</source>
        <translation>帮助的语言（默认 en）</translation>
    </message>
    <message>
        <source>start from a saved .attnscope session: its sentence, switches and view</source>
        <translation>从已保存的 .attnscope 会话出发：其中的句子、各项开关和视图</translation>
    </message>
    <message>
        <source>the file to write (required; - is standard output); its extension gives the format</source>
        <translation>要写出的文件（必填；- 表示标准输出）；扩展名决定格式</translation>
    </message>
    <message>
        <source>all heads with their mean (the default), their mean, or head N</source>
        <translation>所有头及其平均（默认）、各头平均，或第 N 个头</translation>
    </message>
    <message>
        <source>print each weight in its cell</source>
        <translation>在每个格子里印出权重</translation>
    </message>
    <message>
        <source>print no weights (when the session prints them)</source>
        <translation>不印出权重（可关掉会话里的印出设置）</translation>
    </message>
    <message>
        <source>each row&apos;s sum right of the heatmap and each column&apos;s below it</source>
        <translation>在热力图右侧标出每行之和，下方标出每列之和</translation>
    </message>
    <message>
        <source>no row and column sums (when the session shows them)</source>
        <translation>不标行和与列和（可关掉会话里的显示设置）</translation>
    </message>
    <message>
        <source>leave out the colour bar</source>
        <translation>不画色标条</translation>
    </message>
    <message>
        <source>leave out the caption naming the configuration</source>
        <translation>不加说明配置的图注</translation>
    </message>
    <message>
        <source>Settings apply in this order, each overriding the one before: the defaults, the --session file, the --preset (it replaces the session&apos;s sentence and switches; the session&apos;s view stays), then every other option.</source>
        <translation>设置按以下顺序生效，后者覆盖前者：默认值、--session 文件、--preset（它替换会话的句子和开关；会话的视图保留），然后是其他所有选项。</translation>
    </message>
    <message>
        <source>the first d_k: a power of two, 1 to %1 (default 16)</source>
        <translation>起始 d_k：2 的幂，1 到 %1（默认 16）</translation>
    </message>
    <message>
        <source>the last d_k, at most %1 (default 1024)</source>
        <translation>最后的 d_k，至多 %1（默认 1024）</translation>
    </message>
    <message>
        <source>the charts as a figure: png, svg or pdf, by the extension</source>
        <translation>把图表写成图片：按扩展名为 png、svg 或 pdf</translation>
    </message>
    <message>
        <source>the language of the table, or of the figure&apos;s titles and caption (default en)</source>
        <translation>表格，或图片标题和图注的语言（默认 en）</translation>
    </message>
    <message>
        <source>--d-model, --heads and --scale</source>
        <translation>--d-model、--heads 和 --scale</translation>
    </message>
    <message>
        <source>d_k doubles from --from while it is at most --to. Every point has H = 1 and d_model = d_k and is computed twice, with --scale sqrt-dk and with none. Without --text or --preset, a sweep takes the tutorial&apos;s text and switches (--preset article).</source>
        <translation>d_k 从 --from 开始逐次翻倍，直到不超过 --to。每个点都取 H = 1、d_model = d_k，并计算两次：--scale sqrt-dk 一次，none 一次。没有 --text 或 --preset 时，使用教程的文本和开关（--preset article）。</translation>
    </message>
    <message>
        <source>Without --json or --out, a table is printed.</source>
        <translation>没有 --json 或 --out 时，打印一张表格。</translation>
    </message>
    <message>
        <source>A&apos;s %1 (default: the textbook&apos;s)</source>
        <translation>A 的 %1（默认：标准公式的）</translation>
    </message>
    <message>
        <source>a saved session: its sentence, switches (B) and colours</source>
        <translation>已保存的会话：其中的句子、开关（B）和配色</translation>
    </message>
    <message>
        <source>the figure to write (required; - is standard output): png, svg or pdf, by the extension</source>
        <translation>要写出的图片（必填；- 表示标准输出）：按扩展名为 png、svg 或 pdf</translation>
    </message>
    <message>
        <source>head N (default head:0) or the mean of the heads</source>
        <translation>第 N 个头（默认 head:0）或各头平均</translation>
    </message>
    <message>
        <source>print each weight in its cell (the default up to 16 tokens)</source>
        <translation>在每个格子里印出权重（不超过 16 个词元时默认如此）</translation>
    </message>
    <message>
        <source>print no weights</source>
        <translation>不印权重</translation>
    </message>
    <message>
        <source>leave out the caption naming both configurations</source>
        <translation>不加说明两种配置的图注</translation>
    </message>
    <message>
        <source>Both sides compute the same text, sizes, seed and embedding. B takes the switches given (or the session&apos;s); A the textbook formula (÷√d_k, τ = 1, softmax over the keys, mask before it with -inf, view + transpose), keeping B&apos;s mask, unless --a-… options change it.</source>
        <translation>两边用相同的文本、尺寸、种子和嵌入计算。B 使用给出的开关（或会话里的）；A 使用标准公式（÷√d_k、τ = 1、softmax 沿键、在它之前用 -inf 遮盖、view + transpose），并沿用 B 的掩码，除非 --a-… 选项另行指定。</translation>
    </message>
    <message>
        <source>a saved session: its sentence, switches and colours</source>
        <translation>已保存的会话：其中的句子、开关和配色</translation>
    </message>
    <message>
        <source>which head&apos;s pipeline (default head:0)</source>
        <translation>画哪个头的流水线（默认 head:0）</translation>
    </message>
    <message>
        <source>the cell outlined in S, L, the mask and P: query I, key J (default: the last query, key 0)</source>
        <translation>在 S、L、掩码和 P 中框出的格子：查询 I、键 J（默认：最后一个查询、键 0）</translation>
    </message>
    <message>
        <source>leave out the arithmetic of the outlined cell below the tiles</source>
        <translation>不在各步下方列出框中格子的计算过程</translation>
    </message>
    <message>
        <source>the strip&apos;s width in screen pixels, from 400 to 8000 (default 1300): the tiles wrap into lines this wide</source>
        <translation>整条的宽度（屏幕像素），400 到 8000（默认 1300）：各步按此宽度换行</translation>
    </message>
    <message>
        <source>The tiles as Lab → Step by Step shows them: X, Q_h, K_h, V_h, S, L, the mask, P, O_h, the concatenation and the output, each with its formula and shape; below them the arithmetic of the outlined cell: its dot product, scaling and softmax with the real numbers.</source>
        <translation>与“实验 → 逐步计算”中相同的各步：X、Q_h、K_h、V_h、S、L、掩码、P、O_h、拼接和输出，每步带公式和形状；下方是框中格子的计算过程：用真实数值写出点积、缩放和 softmax。</translation>
    </message>
    <message>
        <source>the format, when the extension does not give it</source>
        <translation>格式，在扩展名无法确定时使用</translation>
    </message>
    <message>
        <source>PNG pixels per point, from 0.5 to 16 (default 2)</source>
        <translation>PNG 每点的像素数，0.5 到 16（默认 2）</translation>
    </message>
    <message>
        <source>PNG dots per inch, from 36 to 2400; replaces --png-scale</source>
        <translation>PNG 每英寸点数，36 到 2400；取代 --png-scale</translation>
    </message>
    <message>
        <source>a title above the heatmaps</source>
        <translation>热力图上方的标题</translation>
    </message>
    <message>
        <source>the weights&apos; colours (default viridis)</source>
        <translation>权重的色图（默认 viridis）</translation>
    </message>
    <message>
        <source>colour the weights linearly from 0 (default), or by their logarithm from a few decades below the largest (long sentences, causal masks)</source>
        <translation>从 0 起线性着色（默认），或从最大值往下几个数量级起按对数着色（适合长句子、因果掩码）</translation>
    </message>
    <message>
        <source>which line of the batch to draw, from 0 (default 0)</source>
        <translation>画批次中的哪一行，从 0 数起（默认 0）</translation>
    </message>
    <message>
        <source>the language of the figure&apos;s titles, labels and caption (default en)</source>
        <translation>图片标题、标签和图注的语言（默认 en）</translation>
    </message>
    <message>
        <source>options of %1 (and those of compute, except %2):</source>
        <translation>%1 的选项（以及 compute 的选项，%2 除外）：</translation>
    </message>
    <message>
        <source>open the window, with the first session file given (as a double click does)</source>
        <translation>打开窗口，并打开给出的第一个会话文件（与双击文件相同）</translation>
    </message>
    <message>
        <source>the attention weights of a model, computed elsewhere: .npz (array &apos;attentions&apos;, optional &apos;tokens&apos;, &apos;key_tokens&apos;), .npy or .safetensors; the formula&apos;s options do not apply</source>
        <translation>在别处算出的模型注意力权重：.npz（数组 &apos;attentions&apos;，可选 &apos;tokens&apos;、&apos;key_tokens&apos;）、.npy 或 .safetensors；公式的选项对它不适用</translation>
    </message>
    <message>
        <source>the file&apos;s sequence (batch index) to show, from 0</source>
        <translation>要显示文件中的哪条序列（批次下标），从 0 数起</translation>
    </message>
    <message>
        <source>only this layer of the file, from 0 (default: all)</source>
        <translation>只取文件的这一层，从 0 数起（默认：全部）</translation>
    </message>
    <message>
        <source>write the file&apos;s weights, statistics and head patterns as JSON (&apos;-&apos; = standard output)</source>
        <translation>把文件的权重、统计量和头的模式写成 JSON（&apos;-&apos; 表示标准输出）</translation>
    </message>
    <message>
        <source>options of compute with an attention file (alone):</source>
        <translation>compute 配合注意力文件（单独使用）时的选项：</translation>
    </message>
    <message>
        <source>a model&apos;s attention from a file (.npz, .npy, .safetensors): its weights, statistics and head patterns</source>
        <translation>读入文件（.npz、.npy、.safetensors）中某个模型的注意力：输出其权重、统计量和头的模式</translation>
    </message>
    <message>
        <source>open the window with each attention file&apos;s model view</source>
        <translation>打开窗口，并为每个注意力文件打开其模型视图</translation>
    </message>
    <message>
        <source>W: head:H or mean (of --layer L), or model: a figure of a file&apos;s attention (png, svg, pdf), or its numbers (csv, npy, json)</source>
        <translation>W：head:H 或 mean（--layer L 这一层的），或 model：文件中注意力的图片（png、svg、pdf），或其数值（csv、npy、json）</translation>
    </message>
    <message>
        <source>the attention weights of a model, computed elsewhere (.npz, .npy, .safetensors); the formula&apos;s options do not apply</source>
        <translation>在别处算好的某个模型的注意力权重（.npz、.npy、.safetensors）；公式的选项不适用</translation>
    </message>
    <message>
        <source>the file&apos;s layer, from 0 (required, except with --what model)</source>
        <translation>文件中的层，从 0 数起（必需，--what model 时除外）</translation>
    </message>
    <message>
        <source>head H of the layer, the mean of its heads, or the model: every layer and head as thumbnails (layers as rows); required</source>
        <translation>该层的第 H 个头、该层各头平均，或整个模型：每一层每个头的缩略图（每层一行）；必需</translation>
    </message>
    <message>
        <source>leave out the caption naming the file</source>
        <translation>不要注明文件的图注</translation>
    </message>
    <message>
        <source>options of export with an attention file (alone):</source>
        <translation>export 配合注意力文件时的选项（单独使用）：</translation>
    </message>
    <message>
        <source>run GPT-2 from its folder with the formula&apos;s switches inside every layer: every layer&apos;s weights and the next tokens as JSON</source>
        <translation>从文件夹运行 GPT-2，公式的开关作用于每一层：以 JSON 输出每一层的权重和下一个词元</translation>
    </message>
    <message>
        <source>apply the switches to this layer only, from 0; every other layer runs the textbook formula</source>
        <translation>开关只作用于这一层（从 0 起）；其余各层按标准公式计算</translation>
    </message>
    <message>
        <source>options of compute with a model (beside --text, --json and the switches --scale, --temperature, --axis, --mask, --mask-fill, --mask-stage and --head-split):</source>
        <translation>compute 使用模型时的选项（另有 --text、--json 以及开关 --scale、--temperature、--axis、--mask、--mask-fill、--mask-stage 和 --head-split）：</translation>
    </message>
    <message>
        <source>run a model folder as compute --model does and draw its attention as an attention file&apos;s (--layer, --what, --out)</source>
        <translation>像 compute --model 一样运行模型文件夹，并像绘制注意力文件一样绘制其注意力（--layer、--what、--out）</translation>
    </message>
    <message>
        <source>options of export with a model (beside --text, the switches compute --model takes and the options of export with an attention file):</source>
        <translation>export 使用模型时的选项（另有 --text、compute --model 接受的开关以及 export 配合注意力文件时的选项）：</translation>
    </message>
    <message>
        <source>the run&apos;s attention (with the switches) as export --attention-file draws a file&apos;s</source>
        <translation>运行的注意力（带开关），像 export --attention-file 绘制文件那样输出</translation>
    </message>
    <message>
        <source>run the model on these token ids (comma-separated) instead of a --text, each below the model&apos;s vocab_size</source>
        <translation>用这些词元 id（以逗号分隔）运行模型，代替 --text；每个 id 都须小于模型的 vocab_size</translation>
    </message>
    <message>
        <source>the model with its textbook formula (A) beside the switched one (B): one head, B − A and both top-10 next tokens as a figure</source>
        <translation>模型按标准公式（A）与改了开关的模型（B）并排：一个头、B − A 以及两边的前 10 个下一个词元，输出为图片</translation>
    </message>
    <message>
        <source>run a model folder twice, textbook (A) and with the switches (B), and draw head --what of --layer of both, B − A and both top-10 next tokens</source>
        <translation>运行模型文件夹两次，按标准公式（A）和带开关（B），画出两边 --layer 层的 --what 头、B − A 以及两边的前 10 个下一个词元</translation>
    </message>
    <message>
        <source>the layer both sides show, from 0 (required with --model)</source>
        <translation>两边显示的层，从 0 数起（使用 --model 时必需）</translation>
    </message>
    <message>
        <source>head H of the layer (default head:0) or the mean of its heads</source>
        <translation>该层的第 H 个头（默认 head:0）或该层各头平均</translation>
    </message>
    <message>
        <source>leave out the caption naming both sides and their predictions</source>
        <translation>不加说明两边及其预测的图注</translation>
    </message>
    <message>
        <source>options of compare with a model (beside --text and the switches compute --model takes, which make B; A is the model&apos;s textbook formula):</source>
        <translation>compare 使用模型时的选项（另有 --text 以及 compute --model 接受的开关，它们决定 B；A 是模型的标准公式）：</translation>
    </message>
    <message>
        <source>one head&apos;s pipeline inside the model&apos;s layer, with its own numbers and the switches, as steps draws it</source>
        <translation>模型某一层中一个头的整条流水线，用模型自己的数值并带上开关，像 steps 那样绘制</translation>
    </message>
    <message>
        <source>run a model folder as compute --model does and draw one head&apos;s pipeline inside layer --layer with the model&apos;s own numbers</source>
        <translation>像 compute --model 一样运行模型文件夹，并用模型自己的数值绘制 --layer 层中一个头的流水线</translation>
    </message>
    <message>
        <source>the model&apos;s layer, from 0 (required)</source>
        <translation>模型的层，从 0 数起（必需）</translation>
    </message>
    <message>
        <source>the layer&apos;s head, from 0 (required)</source>
        <translation>该层的头，从 0 数起（必需）</translation>
    </message>
    <message>
        <source>options of steps with a model (beside --text and the switches compute --model takes):</source>
        <translation>steps 使用模型时的选项（另有 --text 以及 compute --model 接受的开关）：</translation>
    </message>
    <message>
        <source>attention by word: the tokens grouped into words (ICU&apos;s, Chinese by its dictionary), attention to a word the sum over its tokens, from a word the mean (Clark et al. 2019); adds &quot;words&quot; to the JSON</source>
        <translation>按词显示注意力：把词元合并成词（ICU 分词，中文按词典切分），对一个词的注意力是其各词元之和，来自一个词的注意力是其各词元的平均（Clark 等，2019）；JSON 中另有 &quot;words&quot;</translation>
    </message>
    <message>
        <source>rotary positions on Q and K, or none (models with rotary positions: qwen2, qwen3, llama, mistral); off leaves only the causal mask to tell positions apart</source>
        <translation>在 Q 和 K 上施加旋转位置编码，或不施加（适用于带旋转位置编码的模型：qwen2、qwen3、llama、mistral）；关闭时只剩因果掩盖能区分位置</translation>
    </message>
    <message>
        <source>knock these heads out (layer.head from 0, comma-separated; L.* every head of layer L): their outputs P·V are replaced before the output projection, as --knock-out-mode says</source>
        <translation>敲掉这些头（层.头，从 0 数起，逗号分隔；L.* 表示第 L 层的所有头）：它们的输出 P·V 在输出投影之前被替换，替换方式见 --knock-out-mode</translation>
    </message>
    <message>
        <source>a knocked-out head&apos;s output becomes 0 (zero, the default) or its mean over the text&apos;s positions (mean)</source>
        <translation>被敲掉的头的输出变为 0（zero，默认），或变为它在本文本各位置上的平均值（mean）</translation>
    </message>
    <message>
        <source>read the residual stream after every block as a prediction, through the final norm and the output head (the logit lens); adds &quot;logit_lens&quot;: L × T × the top 5 to the JSON</source>
        <translation>把每个块之后的残差流经过最终的归一化和输出头读成预测（logit lens）；在 JSON 中加入 &quot;logit_lens&quot;：L × T × 前 5 名</translation>
    </message>
    <message>
        <source>knock out each head alone and add &quot;head_importance&quot; to the JSON: L × H changes of log p(target) at the last position (BERT: the first [MASK]), the target the intact top 1 unless --target-token names it</source>
        <translation>逐个单独敲掉每个头，并在 JSON 中加入 &quot;head_importance&quot;：最后一个位置（BERT：第一个 [MASK]）上 log p(目标) 的 L × H 个变化量；目标默认是完整模型的第一名，可用 --target-token 指定</translation>
    </message>
    <message>
        <source>the token id whose log-probability --head-importance reads</source>
        <translation>--head-importance 读取其对数概率的词元 id</translation>
    </message>
    <message>
        <source>score every head as TransformerLens&apos;s head detector does and add &quot;head_scores&quot;: previous-token, and where the ids&apos; second half repeats the first (a BOS before it skipped) duplicate-token and induction, L × H each</source>
        <translation>像 TransformerLens 的头检测器那样给每个头打分，并加入 &quot;head_scores&quot;：前一个词元分数；当 id 序列的后半重复前半时（跳过开头的 BOS），还有重复词元分数和归纳分数，各为 L × H</translation>
    </message>
    <message>
        <source>run the model on N random ordinary tokens repeated twice (after its BOS token; --seed S draws them) instead of a text, and add &quot;head_scores&quot;: the heads that copy what followed the earlier occurrence score high on induction</source>
        <translation>不用文本，而是让模型读 N 个随机的普通词元并重复一遍（在 BOS 之后；由 --seed S 抽取），并加入 &quot;head_scores&quot;：抄写“上次出现之后那个词元”的头归纳分数高</translation>
    </message>
    <message>
        <source>add &quot;rollout&quot;: attention rollout (Abnar &amp; Zuidema 2020), T × T, row i how much of each input token flows into position i at the top</source>
        <translation>加入 &quot;rollout&quot;：注意力展开（Abnar &amp; Zuidema 2020），T × T，第 i 行表示每个输入词元有多少流到顶层的位置 i</translation>
    </message>
    <message>
        <source>let a decoder (GPT-2, Qwen/Llama/Mistral) write N new tokens, greedy or sampled, with the formula&apos;s switches and knock-outs inside every layer: the ids, the text and each step&apos;s top 5 as JSON</source>
        <translation>让解码器（GPT-2、Qwen/Llama/Mistral）续写 N 个新词元，贪心或采样，公式的开关与敲除作用于每一层：以 JSON 写出 id、文本和每一步的前 5 名</translation>
    </message>
    <message>
        <source>the decoder (GPT-2, Qwen/Llama/Mistral) that writes, from a model folder as compute --model reads it</source>
        <translation>续写的解码器（GPT-2、Qwen/Llama/Mistral），按 compute --model 的方式读取其模型文件夹</translation>
    </message>
    <message>
        <source>begin with these token ids (comma-separated) instead of a --text, each below the model&apos;s vocab_size</source>
        <translation>以这些词元 id（逗号分隔）开头，代替 --text；每个都须小于模型的 vocab_size</translation>
    </message>
    <message>
        <source>write N new tokens (1 … 4096; required); it stops sooner at the model&apos;s end-of-text token or its context length</source>
        <translation>写出 N 个新词元（1 … 4096，必填）；遇到模型的文本结束词元或上下文长度时提前停止</translation>
    </message>
    <message>
        <source>take the most probable token each time (ties: the lower id); the default unless a sampling option is given</source>
        <translation>每次取概率最高的词元（并列时取较小的 id）；未给出采样选项时的默认方式</translation>
    </message>
    <message>
        <source>sample, the next-token logits divided by X (&gt; 0) before their softmax; not the formula&apos;s τ, which --tau sets</source>
        <translation>采样：下一个词元的 logits 在 softmax 之前除以 X（&gt; 0）；这不是公式的 τ，公式的 τ 用 --tau 设置</translation>
    </message>
    <message>
        <source>sample from the K most probable tokens only (0: every token)</source>
        <translation>只从概率最高的 K 个词元中采样（0：全部词元）</translation>
    </message>
    <message>
        <source>sample from the fewest most probable tokens whose probabilities reach P (0 &lt; P ≤ 1)</source>
        <translation>只从概率之和达到 P 的最少几个高概率词元中采样（0 &lt; P ≤ 1）</translation>
    </message>
    <message>
        <source>the sampling&apos;s seed (default 0): the same seed writes the same text</source>
        <translation>采样的随机种子（默认 0）：同一种子写出同样的文本</translation>
    </message>
    <message>
        <source>the formula&apos;s temperature τ in every layer&apos;s attention (compute&apos;s --temperature)</source>
        <translation>公式在每一层注意力中的温度 τ（即 compute 的 --temperature）</translation>
    </message>
    <message>
        <source>options of generate (beside --text, --json and the switches compute --model takes: --scale, --axis, --mask, --mask-fill, --mask-stage, --head-split, with --tau for the formula&apos;s temperature):</source>
        <translation>generate 的选项（另有 --text、--json 以及 compute --model 接受的开关：--scale、--axis、--mask、--mask-fill、--mask-stage、--head-split，公式的温度用 --tau）：</translation>
    </message>
    <message>
        <source>run a model folder as compute --model does and write one experiment&apos;s figure or numbers (--experiment, --out)</source>
        <translation>按 compute --model 的方式运行模型文件夹，并写出一个实验的图或数值（--experiment、--out）</translation>
    </message>
    <message>
        <source>the experiment to write: every block&apos;s top tokens (logit-lens), each head knocked out alone (head-importance), the heads&apos; previous-token, duplicate-token and induction scores (head-roles, on --induction-test N or on a text that repeats itself) or attention rollout (rollout)</source>
        <translation>要写出的实验：每个块的最可能词元（logit-lens）、逐个单独敲掉每个头（head-importance）、各头的前一词元、重复词元和归纳得分（head-roles，基于 --induction-test N 或一段自我重复的文本），或注意力展开（rollout）</translation>
    </message>
    <message>
        <source>the rollout&apos;s row drawn as numbers under its heatmap, from 0 (default: the last)</source>
        <translation>在注意力展开热图下方以数值画出的那一行，从 0 起（默认：最后一行）</translation>
    </message>
    <message>
        <source>the file: .png, .svg, .pdf (the figure), .csv or .json (the numbers)</source>
        <translation>输出文件：.png、.svg、.pdf（图），.csv 或 .json（数值）</translation>
    </message>
    <message>
        <source>options of export with a model and --experiment (beside --text and the switches compute --model takes):</source>
        <translation>export 配合模型和 --experiment 时的选项（另有 --text 以及 compute --model 接受的开关）：</translation>
    </message>
    <message>
        <source>K/V heads K (grouped-query attention; 1: multi-query); must divide --heads; 0: as many as the heads</source>
        <translation>键/值头数 K（分组查询注意力；1：多查询）；必须能整除 --heads；0：与头数相同</translation>
    </message>
    <message>
        <source>divide every row of Q_h and K_h by its root mean square (Qwen3)</source>
        <translation>把 Q_h 和 K_h 的每一行除以它的均方根（Qwen3）</translation>
    </message>
    <message>
        <source>the base θ of --positional rope (10000)</source>
        <translation>--positional rope 的底数 θ（10000）</translation>
    </message>
    <message>
        <source>subtract m_h·|i-j| from the logits, BLOOM&apos;s slopes (positions without embeddings: --positional defaults to none)</source>
        <translation>从 logit 中减去 m_h·|i-j|，斜率同 BLOOM（不用位置编码：--positional 默认为 none）</translation>
    </message>
    <message>
        <source>cap the logits: L = c·tanh(L/c), c &gt; 0, after the scaling (Gemma 2)</source>
        <translation>软截断 logit：L = c·tanh(L/c)，c &gt; 0，在缩放之后（Gemma 2）</translation>
    </message>
    <message>
        <source>sliding window: query i sees keys j with |i-j| &lt; W only (Mistral)</source>
        <translation>滑动窗口：查询 i 只能看到 |i-j| &lt; W 的键 j（Mistral）</translation>
    </message>
    <message>
        <source>one more logit s in every row of the softmax over the keys, dropped after it (gpt-oss; 0: softmax off by one)</source>
        <translation>沿键的 softmax 每行多一个 logit s，softmax 之后丢弃（gpt-oss；0：softmax off by one）</translation>
    </message>
    <message>
        <source>add the sinusoidal encoding to x, nothing, or rotate Q_h and K_h by their positions (rope; a model&apos;s own RoPE is --rope on|off)</source>
        <translation>把正弦编码加到 x 上、什么都不加，或按位置旋转 Q_h 和 K_h（rope；模型自带的 RoPE 用 --rope on|off）</translation>
    </message>
    <message>
        <source>list the models already on this computer (Hugging Face, ModelScope, Ollama, LM Studio): name, tool, size, quantization and the path --model opens; nothing is downloaded</source>
        <translation>列出这台电脑上已有的模型（Hugging Face、ModelScope、Ollama、LM Studio）：名称、工具、大小、量化方式，以及 --model 要打开的路径；不下载任何东西</translation>
    </message>
    <message>
        <source>open the window running the model in that folder (one holding a config.json) or GGUF file, as File → Open Model… does</source>
        <translation>打开窗口，运行那个文件夹（含 config.json）或 GGUF 文件里的模型，和“文件 → 打开模型…”一样</translation>
    </message>
    <message>
        <source>run a model folder as Hugging Face downloads it (config.json, model.safetensors or its shards and its tokenizer&apos;s files; GPT-2, Qwen/Llama/Mistral or BERT), or a GGUF file as Ollama and LM Studio keep it, with the formula&apos;s switches inside every layer; --json is required</source>
        <translation>运行 Hugging Face 下载的模型文件夹（config.json、model.safetensors 或其分片，以及分词器的文件；GPT-2、Qwen/Llama/Mistral 或 BERT），或 Ollama、LM Studio 保存的 GGUF 文件，公式的开关作用于每一层；必须给出 --json</translation>
    </message>
</context>
<context>
    <name>Comparison</name>
    <message>
        <source>NaN</source>
        <comment>not a number</comment>
        <translation>NaN</translation>
    </message>
    <message>
        <source>mean of the heads</source>
        <translation>各头平均</translation>
    </message>
    <message>
        <source>head %1</source>
        <translation>头 %1</translation>
    </message>
    <message>
        <source>A: %1</source>
        <comment>caption line; %1 lists the switches</comment>
        <translation>A：%1</translation>
    </message>
    <message>
        <source>B: %1</source>
        <comment>caption line; %1 lists the switches</comment>
        <translation>B：%1</translation>
    </message>
    <message>
        <source>view split</source>
        <comment>heads split with view(B, H, T, d_k), the bug</comment>
        <translation>用 view 拆分头</translation>
    </message>
    <message>
        <source>&lt;pad&gt; not masked</source>
        <translation>&lt;pad&gt; 未掩盖</translation>
    </message>
    <message>
        <source>A: %1</source>
        <comment>heatmap title; %1 is the formula</comment>
        <translation>A：%1</translation>
    </message>
    <message>
        <source>B: %1</source>
        <comment>heatmap title; %1 is the formula</comment>
        <translation>B：%1</translation>
    </message>
    <message>
        <source>B − A (red: B larger, blue: A larger)</source>
        <comment>heatmap title of the difference</comment>
        <translation>B − A（红：B 更大，蓝：A 更大）</translation>
    </message>
    <message>
        <source>no cell is shown on both sides: each is masked or NaN in A or B</source>
        <translation>没有格子能在两边同时显示：每个格子在 A 或 B 中要么被掩盖，要么是 NaN</translation>
    </message>
    <message>
        <source>B − A = 0 in every cell: the two configurations give the same weights</source>
        <translation>每个格子的 B − A 都为 0：两种配置得到的权重完全相同</translation>
    </message>
    <message>
        <source>largest |B − A| = %1 at query %2 (row %3), key %4 (column %5): %6 in A, %7 in B</source>
        <comment>rows and columns are numbered from 0</comment>
        <translation>最大的 |B − A| = %1，位于查询 %2（行索引 %3）、键 %4（列索引 %5）：A 中为 %6，B 中为 %7</translation>
    </message>
    <message>
        <source>; cells NaN in A or B: %1</source>
        <translation>；在 A 或 B 中为 NaN 的格子：%1 个</translation>
    </message>
    <message>
        <source>A %1</source>
        <comment>weight of side A</comment>
        <translation>A %1</translation>
    </message>
    <message>
        <source>B %1</source>
        <comment>weight of side B</comment>
        <translation>B %1</translation>
    </message>
    <message>
        <source>B − A %1</source>
        <translation>B − A %1</translation>
    </message>
    <message>
        <source>masked in A or B</source>
        <translation>在 A 或 B 中已掩盖</translation>
    </message>
    <message>
        <source>query %1 (row %2) → key %3 (column %4): %5</source>
        <comment>hover text; %5 lists the cell&apos;s values</comment>
        <translation>查询 %1（行索引 %2）→ 键 %3（列索引 %4）：%5</translation>
    </message>
    <message>
        <source>&lt;pad&gt; keys masked</source>
        <translation>&lt;pad&gt; 键已掩盖</translation>
    </message>
    <message>
        <source>&lt;pad&gt; keys not masked</source>
        <translation>&lt;pad&gt; 键未掩盖</translation>
    </message>
    <message>
        <source>%1 K/V heads</source>
        <comment>grouped-query attention; %1 is their number</comment>
        <translation>%1 个键/值头</translation>
    </message>
    <message>
        <source>QK-norm</source>
        <translation>QK-norm</translation>
    </message>
    <message>
        <source>ALiBi</source>
        <translation>ALiBi</translation>
    </message>
    <message>
        <source>soft-cap c = %1</source>
        <translation>软截断 c = %1</translation>
    </message>
    <message>
        <source>window of %1 keys</source>
        <translation>%1 个键的窗口</translation>
    </message>
    <message>
        <source>sink s = %1</source>
        <translation>汇聚点 s = %1</translation>
    </message>
</context>
<context>
    <name>ControlHelp</name>
    <message>
        <source>The text to attend over. Each line becomes one sequence of the batch (B = number of lines); shorter lines are padded with &lt;pad&gt; up to the longest (T tokens).</source>
        <translation>要计算注意力的文本。每一行成为批次中的一条序列（B = 行数）；较短的行用 &lt;pad&gt; 填充到最长行的长度（T 个词元）。</translation>
    </message>
    <message>
        <source>How the text is cut into tokens: Automatic finds words (Chinese too) with ICU; Spaces only splits at white space; Characters makes every character a token.</source>
        <translation>文本如何切分成词元：“自动”用 ICU 识别词语（中文也可以）；“仅按空格”只在空白处切分；“按字符”把每个字符都当作一个词元。</translation>
    </message>
    <message>
        <source>d_model (C): the length of every token&apos;s vector. Q, K and V have C features each, shared out among the heads.</source>
        <translation>d_model（C）：每个词元向量的长度。Q、K、V 各有 C 个特征，平均分给各个头。</translation>
    </message>
    <message>
        <source>Set d_model to %1.</source>
        <translation>把 d_model 设为 %1。</translation>
    </message>
    <message>
        <source>Number of attention heads H. Only the divisors of d_model are offered: heads must divide d_model, because each head gets d_k = d_model / heads features.</source>
        <translation>注意力头的数量 H。这里只列出 d_model 的约数：头数必须能整除 d_model，因为每个头分到 d_k = d_model / 头数 个特征。</translation>
    </message>
    <message>
        <source>Features per head, d_k = d_model / heads. The textbook scaling divides the scores by √d_k.</source>
        <translation>每个头的特征数，d_k = d_model / 头数。标准的缩放是把分数除以 √d_k。</translation>
    </message>
    <message>
        <source>Random seed, 0 to 2⁶⁴ − 1, as in torch.manual_seed(seed): it draws the embeddings and the weights W_q, W_k, W_v, W_o. The same seed gives the same numbers.</source>
        <translation>随机种子，0 到 2⁶⁴ − 1，与 torch.manual_seed(seed) 中的相同：用它抽取嵌入向量和权重 W_q、W_k、W_v、W_o。相同的种子得到相同的数值。</translation>
    </message>
    <message>
        <source>Where the token vectors X come from. Table gives every distinct word its own vector, the same in every sentence; torch.randn draws X = torch.randn(B, T, C) exactly as PyTorch does after manual_seed.</source>
        <translation>词元向量 X 从哪里来。“查表”给每个不同的词一个专属向量，在每个句子中都相同；torch.randn 按 X = torch.randn(B, T, C) 抽取，与 PyTorch 在 manual_seed 之后得到的完全一致。</translation>
    </message>
    <message>
        <source>How Q, K, V (B, T, C) are cut into heads. view + transpose gives (B, H, T, d_k) correctly; view alone reads the memory as (B, H, T, d_k) and mixes tokens across heads, the classic bug.</source>
        <translation>Q、K、V（B, T, C）如何拆分成多个头。view + transpose 能正确得到 (B, H, T, d_k)；只用 view 会把内存直接按 (B, H, T, d_k) 读取，把词元在头之间打乱——这是经典错误。</translation>
    </message>
    <message>
        <source>What the scores QKᵀ are divided by. The tutorial divides by √d_k so that the scores keep a standard deviation near 1; without it, a large d_k makes softmax nearly one-hot.</source>
        <translation>分数 QKᵀ 除以什么。教程中除以 √d_k，让分数的标准差保持在 1 附近；不缩放时，d_k 一大，softmax 就几乎变成 one-hot（饱和）。</translation>
    </message>
    <message>
        <source>Temperature τ divides the logits before softmax: τ &lt; 1 sharpens the weights towards one-hot, τ &gt; 1 flattens them towards uniform. The textbook formula has τ = 1.</source>
        <translation>softmax 之前先把 logit 除以温度 τ：τ &lt; 1 让权重更尖锐、趋向 one-hot；τ &gt; 1 让权重更平缓、趋向均匀。标准公式中 τ = 1。</translation>
    </message>
    <message>
        <source>Set τ back to 1, the textbook formula.</source>
        <translation>把 τ 恢复为 1，即标准公式。</translation>
    </message>
    <message>
        <source>Causal mask M: query i may not look at later keys j &gt; i (torch.triu(ones(T, T), 1)), as in a decoder such as GPT.</source>
        <translation>因果掩码 M：查询 i 不能看后面的键 j &gt; i（torch.triu(ones(T, T), 1)），与 GPT 这类解码器相同。</translation>
    </message>
    <message>
        <source>Mask the keys of &lt;pad&gt; tokens so that no query attends to padding. Without it the shorter sentences spread weight over the padding.</source>
        <translation>掩盖 &lt;pad&gt; 词元的键，使任何查询都不会关注填充。否则较短的句子会把权重分散到填充上。</translation>
    </message>
    <message>
        <source>What masked logits are set to. -inf gives exactly 0 weight, but a row with every key masked becomes NaN; -1e9 gives almost 0, and such a row becomes uniform.</source>
        <translation>被掩盖的 logit 设成什么值。-inf 得到的权重恰好为 0，但所有键都被掩盖的行会变成 NaN；-1e9 得到的权重几乎为 0，这样的行则变成均匀分布。</translation>
    </message>
    <message>
        <source>Mask before softmax (correct): masked keys get weight 0 and every row still sums to 1. Zeroing the weights after softmax leaves rows that no longer sum to 1, a common bug.</source>
        <translation>在 softmax 之前施加掩码（正确）：被掩盖的键权重为 0，每行之和仍为 1。在 softmax 之后才把权重置零，行和就不再为 1——这是常见错误。</translation>
    </message>
    <message>
        <source>The dimension softmax normalizes. It must run over dim=-1: each query&apos;s weights over the keys sum to 1. dim=-2 makes each key&apos;s column sum to 1; dim=0 normalizes across the sentences of the batch.</source>
        <translation>softmax 沿哪一维归一化。必须是 dim=-1：每个查询对所有键的权重之和为 1。dim=-2 会让每个键所在的列和为 1；dim=0 则在批次的各个句子之间归一化。</translation>
    </message>
    <message>
        <source>How attention learns word order. Sinusoidal adds the encoding of Vaswani et al. 2017 to X; None adds nothing, and the same word gets the same vector everywhere; RoPE rotates each row of Q_h and K_h by its position (Llama, Qwen), so QKᵀ depends on the distance i − j.</source>
        <translation>注意力如何得知词序。“正弦”把 Vaswani 等（2017）的编码加到 X 上；“无”什么也不加，同一个词在哪里都是同一个向量；RoPE 按位置旋转 Q_h 和 K_h 的每一行（Llama、Qwen），于是 QKᵀ 取决于距离 i − j。</translation>
    </message>
    <message>
        <source>How many heads K and V have (grouped-query attention, Llama 2 70B and most models since): H/K query heads share each K/V head, which shrinks the KV cache. 1 is multi-query attention. It must divide the number of heads.</source>
        <translation>K 和 V 有几个头（分组查询注意力，Llama 2 70B 及此后的大多数模型）：每 H/K 个查询头共用一个键/值头，从而缩小 KV 缓存。1 就是多查询注意力。它必须能整除头数。</translation>
    </message>
    <message>
        <source>Divide every row of Q_h and K_h by its root mean square before QKᵀ (Qwen3, OLMo 2): the scores stay bounded by d_k, whatever the size of the vectors.</source>
        <translation>在计算 QKᵀ 之前，把 Q_h 和 K_h 的每一行除以它的均方根（Qwen3、OLMo 2）：无论向量多大，分数都不会超出 d_k 这个上限。</translation>
    </message>
    <message>
        <source>The base θ of RoPE&apos;s frequencies θ^(−2i/d_k): 10000 in Llama 2, 500000 in Llama 3. A larger θ turns slowly and reaches farther.</source>
        <translation>RoPE 频率 θ^(−2i/d_k) 的底数 θ：Llama 2 中为 10000，Llama 3 中为 500000。θ 越大，转得越慢，看得越远。</translation>
    </message>
    <message>
        <source>ALiBi (BLOOM, MPT): subtract m_h·|i − j| from the logits, a penalty that grows with the distance, each head with its own slope m_h. Turning it on sets the positions to none, as those models have no positional embedding.</source>
        <translation>ALiBi（BLOOM、MPT）：从 logit 中减去 m_h·|i − j|，这是一个随距离增长的惩罚，每个头有自己的斜率 m_h。打开它会把位置编码设为“无”，因为这些模型没有位置嵌入。</translation>
    </message>
    <message>
        <source>Soft-capping (Gemma 2): L = c·tanh(L/c) keeps every logit inside (−c, c) and leaves small ones almost unchanged. c must be a positive number (Gemma 2: 50).</source>
        <translation>软截断（Gemma 2）：L = c·tanh(L/c) 把每个 logit 限制在 (−c, c) 之内，小的 logit 几乎不变。c 必须是正数（Gemma 2：50）。</translation>
    </message>
    <message>
        <source>Sliding window (Mistral, Gemma 2&apos;s local layers): query i sees only the keys j with |i − j| &lt; W; the others are masked. W is 1 to 4096 keys.</source>
        <translation>滑动窗口（Mistral、Gemma 2 的局部层）：查询 i 只能看到 |i − j| &lt; W 的键 j，其余的键被掩盖。W 为 1 到 4096 个键。</translation>
    </message>
    <message>
        <source>An attention sink (gpt-oss): one more logit s in every row of the softmax, dropped after it, so a query may give its weight to nothing. s = 0 is &quot;softmax off by one&quot;. Any finite number.</source>
        <translation>注意力汇聚点（gpt-oss）：softmax 的每一行多一个 logit s，softmax 之后丢弃，这样查询可以把权重交给“无”。s = 0 就是 &quot;softmax off by one&quot;。可以是任意有限数。</translation>
    </message>
    <message>
        <source>A sink is one more key in each row: it needs the softmax over the keys (dim=-1). Set Softmax over back to the keys to use it.</source>
        <translation>汇聚点是每一行多出的一个键：它要求 softmax 沿键（dim=-1）进行。要使用它，请把“softmax 维度”设回键。</translation>
    </message>
</context>
<context>
    <name>ExperimentExport</name>
    <message>
        <source>Cannot tell the format of %1: name it .png, .svg, .pdf, .csv or .json.</source>
        <translation>无法判断 %1 的格式：请以 .png、.svg、.pdf、.csv 或 .json 结尾命名。</translation>
    </message>
    <message>
        <source>There is nothing to export yet.</source>
        <translation>还没有可导出的内容。</translation>
    </message>
    <message>
        <source>layer %1</source>
        <comment>a row of a layers × heads grid</comment>
        <translation>层 %1</translation>
    </message>
    <message>
        <source>head %1</source>
        <comment>a column of a layers × heads grid</comment>
        <translation>头 %1</translation>
    </message>
    <message>
        <source>the textbook formula</source>
        <translation>教科书公式</translation>
    </message>
    <message>
        <source>departs from the textbook: %1</source>
        <translation>偏离教科书：%1</translation>
    </message>
    <message>
        <source>; </source>
        <comment>separator between departures</comment>
        <translation>；</translation>
    </message>
    <message>
        <source>%1 · %2 layers × %3 heads · %4 tokens · %5</source>
        <translation>%1 · %2 层 × %3 个头 · %4 个词元 · %5</translation>
    </message>
</context>
<context>
    <name>ExportPath</name>
    <message>
        <source>Saved %1 · &lt;a href=&quot;%2&quot;&gt;Open Folder&lt;/a&gt;</source>
        <extracomment>%1 is a file name, %2 the address of its folder</extracomment>
        <translation>已保存 %1 · &lt;a href=&quot;%2&quot;&gt;打开文件夹&lt;/a&gt;</translation>
    </message>
</context>
<context>
    <name>Figure</name>
    <message>
        <source>PNG image (*.png)</source>
        <translation>PNG 图像 (*.png)</translation>
    </message>
    <message>
        <source>SVG vector image (*.svg)</source>
        <translation>SVG 矢量图 (*.svg)</translation>
    </message>
    <message>
        <source>PDF document (*.pdf)</source>
        <translation>PDF 文档 (*.pdf)</translation>
    </message>
    <message>
        <source>CSV table (*.csv)</source>
        <translation>CSV 表格 (*.csv)</translation>
    </message>
    <message>
        <source>NumPy array of the weights (*.npy)</source>
        <translation>权重的 NumPy 数组 (*.npy)</translation>
    </message>
    <message>
        <source>JSON with every number (*.json)</source>
        <translation>含全部数值的 JSON (*.json)</translation>
    </message>
    <message>
        <source>The figure would be %1 × %2 pixels, more than %3 on a side; lower the scale or the DPI.</source>
        <translation>图片将有 %1 × %2 像素，单边超过 %3；请调低放大倍数或 DPI。</translation>
    </message>
    <message>
        <source>Attention weights</source>
        <comment>figure file title</comment>
        <translation>注意力权重</translation>
    </message>
    <message>
        <source>Cannot encode the figure as PNG.</source>
        <translation>无法把图片编码为 PNG。</translation>
    </message>
    <message>
        <source>Cannot draw the figure as SVG.</source>
        <translation>无法把图片绘制为 SVG。</translation>
    </message>
    <message>
        <source>Cannot draw the figure as PDF.</source>
        <translation>无法把图片绘制为 PDF。</translation>
    </message>
    <message>
        <source>d_model %1</source>
        <translation>d_model %1</translation>
    </message>
    <message>
        <source>heads %1</source>
        <translation>头数 %1</translation>
    </message>
    <message>
        <source>d_k %1</source>
        <translation>d_k %1</translation>
    </message>
    <message>
        <source>seed %1</source>
        <translation>种子 %1</translation>
    </message>
    <message>
        <source>τ %1</source>
        <comment>temperature</comment>
        <translation>温度 τ %1</translation>
    </message>
    <message>
        <source>fill %1</source>
        <translation>掩码填充值：%1</translation>
    </message>
    <message>
        <source>sequence %1 of %2</source>
        <translation>第 %1 条序列（共 %2 条）</translation>
    </message>
    <message>
        <source>There is nothing to export yet.</source>
        <translation>还没有可导出的内容。</translation>
    </message>
    <message>
        <source>The figure has %1 cells, too many for a vector file (at most %2); export a PNG instead.</source>
        <translation>图片有 %1 个格子，对矢量文件来说太多（最多 %2 个）；请改为导出 PNG。</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>%1 is not a figure format.</source>
        <translation>%1 不是可用的图片格式。</translation>
    </message>
    <message>
        <source>cross-attention: T_q %1 × T_k %2</source>
        <translation>交叉注意力：T_q %1 × T_k %2</translation>
    </message>
    <message>
        <source>Step by step</source>
        <comment>figure file title</comment>
        <translation>逐步计算</translation>
    </message>
    <message>
        <source>The figure would be %1 × %2 pixels, more than %3 on a side; export an SVG or a PDF instead.</source>
        <translation>图片将有 %1 × %2 像素，单边超过 %3；请改为导出 SVG 或 PDF。</translation>
    </message>
    <message>
        <source>Cannot tell the format of %1: name it .png, .svg or .pdf.</source>
        <translation>无法判断 %1 的格式：请以 .png、.svg 或 .pdf 作为扩展名。</translation>
    </message>
    <message>
        <source>÷ √d_k</source>
        <comment>caption: the scaling</comment>
        <translation>÷ √d_k</translation>
    </message>
    <message>
        <source>no scaling</source>
        <comment>caption: the scaling</comment>
        <translation>不缩放</translation>
    </message>
    <message>
        <source>÷ √d_model</source>
        <comment>caption: the scaling</comment>
        <translation>÷ √d_model</translation>
    </message>
    <message>
        <source>softmax over the keys (dim=-1)</source>
        <translation>对键做 softmax（dim=-1）</translation>
    </message>
    <message>
        <source>softmax over the queries (dim=-2)</source>
        <translation>对查询做 softmax（dim=-2）</translation>
    </message>
    <message>
        <source>softmax over the batch (dim=0)</source>
        <translation>对批次做 softmax（dim=0）</translation>
    </message>
    <message>
        <source>no mask</source>
        <translation>无掩码</translation>
    </message>
    <message>
        <source>causal mask</source>
        <translation>因果掩码</translation>
    </message>
    <message>
        <source>x from a table, a vector per word</source>
        <translation>x 查表（每个词一个向量）</translation>
    </message>
    <message>
        <source>x = torch.randn(B, T, C)</source>
        <translation>x = torch.randn(B, T, C)</translation>
    </message>
    <message>
        <source>sinusoidal positions</source>
        <translation>正弦位置编码</translation>
    </message>
    <message>
        <source>no positional encoding</source>
        <translation>无位置编码</translation>
    </message>
    <message>
        <source>mask after the softmax (bug)</source>
        <translation>先 softmax 再掩码（错误）</translation>
    </message>
    <message>
        <source>heads split by view only (bug)</source>
        <translation>分头只用 view（错误）</translation>
    </message>
    <message>
        <source>mask before the softmax</source>
        <translation>先掩码再 softmax</translation>
    </message>
    <message>
        <source>heads split by view + transpose</source>
        <translation>分头用 view + transpose</translation>
    </message>
    <message>
        <source>layer %1</source>
        <translation>层 %1</translation>
    </message>
    <message>
        <source>head %1</source>
        <translation>头 %1</translation>
    </message>
    <message>
        <source>mean of the heads (H = %1)</source>
        <translation>各头平均（H = %1）</translation>
    </message>
    <message>
        <source>layers × heads: %1 × %2</source>
        <comment>the model figure&apos;s grid</comment>
        <translation>层 × 头：%1 × %2</translation>
    </message>
    <message>
        <source>sequence %1 (B = %2)</source>
        <comment>numbered from 0, as the file&apos;s</comment>
        <translation>序列 %1（B = %2）</translation>
    </message>
    <message>
        <source>no tokens in the file</source>
        <translation>文件中没有词元</translation>
    </message>
    <message>
        <source>layer</source>
        <comment>a row of the model figure</comment>
        <translation>层</translation>
    </message>
    <message>
        <source>head →</source>
        <comment>the model figure&apos;s columns</comment>
        <translation>头 →</translation>
    </message>
    <message>
        <source>Model view</source>
        <comment>the model figure&apos;s default title</comment>
        <translation>模型视图</translation>
    </message>
    <message>
        <source>%1 (by word)</source>
        <comment>%1 names a model or file; its attention by word</comment>
        <translation>%1（按词）</translation>
    </message>
    <message>
        <source>by-word</source>
        <comment>part of a suggested file name: attention by word; no spaces</comment>
        <translation>按词</translation>
    </message>
    <message>
        <source>RoPE positions</source>
        <translation>RoPE 位置编码</translation>
    </message>
</context>
<context>
    <name>Heatmap</name>
    <message>
        <source>query ↓</source>
        <comment>axis title: rows are query tokens</comment>
        <translation>查询 ↓</translation>
    </message>
    <message>
        <source>key →</source>
        <comment>axis title: columns are key tokens</comment>
        <translation>键 →</translation>
    </message>
    <message>
        <source>NaN</source>
        <comment>not a number</comment>
        <translation>NaN</translation>
    </message>
    <message>
        <source>Σ row</source>
        <comment>title of the bars showing each row&apos;s sum of weights</comment>
        <translation>行和</translation>
    </message>
    <message>
        <source>Σ column</source>
        <comment>title of the bars showing each column&apos;s sum of weights</comment>
        <translation>列和</translation>
    </message>
</context>
<context>
    <name>Labels</name>
    <message>
        <source>Automatic (words)</source>
        <comment>tokenizer mode</comment>
        <translation>自动（按词）</translation>
    </message>
    <message>
        <source>Spaces only</source>
        <comment>tokenizer mode</comment>
        <translation>仅按空格</translation>
    </message>
    <message>
        <source>Characters</source>
        <comment>tokenizer mode</comment>
        <translation>按字符</translation>
    </message>
    <message>
        <source>Table (one vector per word)</source>
        <comment>embedding mode</comment>
        <translation>查表（每个词一个向量）</translation>
    </message>
    <message>
        <source>torch.randn(B, T, C)</source>
        <comment>embedding mode</comment>
        <translation>torch.randn(B, T, C)</translation>
    </message>
    <message>
        <source>Sinusoidal</source>
        <comment>positional encoding</comment>
        <translation>正弦</translation>
    </message>
    <message>
        <source>None</source>
        <comment>positional encoding</comment>
        <translation>无</translation>
    </message>
    <message>
        <source>÷ √d_k (textbook)</source>
        <comment>scaling mode</comment>
        <translation>÷ √d_k（标准）</translation>
    </message>
    <message>
        <source>None</source>
        <comment>scaling mode</comment>
        <translation>不缩放</translation>
    </message>
    <message>
        <source>÷ √d_model</source>
        <comment>scaling mode</comment>
        <translation>÷ √d_model</translation>
    </message>
    <message>
        <source>Keys (dim=-1)</source>
        <comment>softmax axis</comment>
        <translation>键（dim=-1）</translation>
    </message>
    <message>
        <source>Queries (dim=-2)</source>
        <comment>softmax axis</comment>
        <translation>查询（dim=-2）</translation>
    </message>
    <message>
        <source>Batch (dim=0)</source>
        <comment>softmax axis</comment>
        <translation>批次（dim=0）</translation>
    </message>
    <message>
        <source>No mask</source>
        <comment>mask kind</comment>
        <translation>无掩码</translation>
    </message>
    <message>
        <source>Causal (triu)</source>
        <comment>mask kind</comment>
        <translation>因果（triu）</translation>
    </message>
    <message>
        <source>-inf</source>
        <comment>mask fill value</comment>
        <translation>-inf</translation>
    </message>
    <message>
        <source>-1e9</source>
        <comment>mask fill value</comment>
        <translation>-1e9</translation>
    </message>
    <message>
        <source>Before softmax (correct)</source>
        <comment>mask stage</comment>
        <translation>softmax 之前（正确）</translation>
    </message>
    <message>
        <source>After softmax (bug)</source>
        <comment>mask stage</comment>
        <translation>softmax 之后（错误）</translation>
    </message>
    <message>
        <source>view + transpose (correct)</source>
        <comment>head split</comment>
        <translation>view + transpose（正确）</translation>
    </message>
    <message>
        <source>view only (bug)</source>
        <comment>head split</comment>
        <translation>只用 view（错误）</translation>
    </message>
    <message>
        <source>Self: Q, K, V from the text</source>
        <comment>attention</comment>
        <translation>自注意力：Q、K、V 同一文本</translation>
    </message>
    <message>
        <source>Cross: K, V from a second text</source>
        <comment>attention</comment>
        <translation>交叉注意力：K、V 另一段文本</translation>
    </message>
    <message>
        <source>B = %1 · T_q = %2 · T_k = %3 · d_model = %4 · H = %5 · d_k = %6</source>
        <comment>cross-attention: T_q query tokens, T_k key tokens</comment>
        <translation>B = %1 · T_q = %2 · T_k = %3 · d_model = %4 · H = %5 · d_k = %6</translation>
    </message>
    <message>
        <source>B = %1 · T = %2 · d_model = %3 · H = %4 · d_k = %5</source>
        <translation>B = %1 · T = %2 · d_model = %3 · H = %4 · d_k = %5</translation>
    </message>
    <message>
        <source>RoPE (rotate Q and K)</source>
        <comment>positional encoding</comment>
        <translation>RoPE（旋转 Q 和 K）</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>Export &amp;Figure…</source>
        <translation>导出图片(&amp;F)…</translation>
    </message>
    <message>
        <source>Save the heatmaps as a PNG, SVG or PDF figure for slides and handouts</source>
        <translation>把热力图保存为 PNG、SVG 或 PDF 图片，用于幻灯片和讲义</translation>
    </message>
    <message>
        <source>Export &amp;Numbers…</source>
        <translation>导出数值(&amp;N)…</translation>
    </message>
    <message>
        <source>Save every weight as CSV for a spreadsheet, NPY for NumPy, or JSON</source>
        <translation>把所有权重保存为 CSV（电子表格）、NPY（NumPy）或 JSON</translation>
    </message>
    <message>
        <source>&amp;Copy Figure</source>
        <translation>复制图片(&amp;C)</translation>
    </message>
    <message>
        <source>Copy the heatmaps of all heads as an image, to paste into slides</source>
        <translation>把所有头的热力图复制为一张图片，可直接粘贴到幻灯片中</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>Close AttnScope; the configuration is kept for next time</source>
        <translation>关闭 AttnScope；当前配置会保留到下次</translation>
    </message>
    <message>
        <source>&amp;One Colour Scale for All Heads</source>
        <translation>所有头共用一个色标(&amp;O)</translation>
    </message>
    <message>
        <source>On: every head uses the same colour range, so heads compare directly. Off: each head uses its own range</source>
        <translation>开启：所有头使用相同的颜色范围，可以直接相互比较。关闭：每个头使用各自的范围</translation>
    </message>
    <message>
        <source>Show &amp;Values in Cells</source>
        <translation>在格子中显示数值(&amp;V)</translation>
    </message>
    <message>
        <source>Print each weight inside its cell when the cell is large enough</source>
        <translation>格子足够大时，在格子里标出每个权重</translation>
    </message>
    <message>
        <source>&amp;How to Read These Heatmaps</source>
        <translation>如何阅读热力图(&amp;H)</translation>
    </message>
    <message>
        <source>What rows, columns, colours and warnings mean</source>
        <translation>行、列、颜色和警告各表示什么</translation>
    </message>
    <message>
        <source>&amp;About AttnScope</source>
        <translation>关于 AttnScope(&amp;A)</translation>
    </message>
    <message>
        <source>Version and purpose of AttnScope</source>
        <translation>AttnScope 的版本和用途</translation>
    </message>
    <message>
        <source>About &amp;Qt</source>
        <translation>关于 Qt(&amp;Q)</translation>
    </message>
    <message>
        <source>The Qt version AttnScope runs on</source>
        <translation>AttnScope 所用的 Qt 版本</translation>
    </message>
    <message>
        <source>&amp;Open Session…</source>
        <translation>打开会话(&amp;O)…</translation>
    </message>
    <message>
        <source>Open a saved .attnscope session: its text, switches and view</source>
        <translation>打开已保存的 .attnscope 会话：包括文本、各项开关和视图</translation>
    </message>
    <message>
        <source>&amp;Save Session</source>
        <translation>保存会话(&amp;S)</translation>
    </message>
    <message>
        <source>Save the text, every switch and the view to a session file</source>
        <translation>把文本、所有开关和视图保存到会话文件</translation>
    </message>
    <message>
        <source>Save Session &amp;As…</source>
        <translation>会话另存为(&amp;A)…</translation>
    </message>
    <message>
        <source>Save the session under a new name</source>
        <translation>以新的文件名保存会话</translation>
    </message>
    <message>
        <source>Row and Column &amp;Sums</source>
        <translation>行和与列和(&amp;S)</translation>
    </message>
    <message>
        <source>Show each row&apos;s and each column&apos;s sum beside the heatmap, in red where it is not 1: with the softmax over the keys every row sums to 1</source>
        <translation>在热力图旁显示每行、每列的和，不为 1 的标成红色：softmax 沿键归一化时，每行之和都为 1</translation>
    </message>
    <message>
        <source>d_k &amp;Sweep…</source>
        <translation>d_k 扫描(&amp;S)…</translation>
    </message>
    <message>
        <source>Exercise 1: the same sentence at d_k = 16 … 1024, with and without √d_k scaling</source>
        <translation>练习 1：同一个句子在 d_k = 16 … 1024 下，分别做与不做 √d_k 缩放</translation>
    </message>
    <message>
        <source>&amp;Compare…</source>
        <translation>对比(&amp;C)…</translation>
    </message>
    <message>
        <source>The textbook formula and your switches side by side, with their difference B − A</source>
        <translation>把标准公式和你的开关设置并排对比，并显示两者之差 B − A</translation>
    </message>
    <message>
        <source>&amp;Step by Step…</source>
        <translation>逐步计算(&amp;S)…</translation>
    </message>
    <message>
        <source>The whole pipeline of one head, matrix by matrix, and the arithmetic of any weight</source>
        <translation>一个头的完整计算流程，逐个矩阵展示，并可查看任一权重的算式</translation>
    </message>
    <message>
        <source>&amp;Embedding Editor…</source>
        <translation>嵌入编辑器(&amp;E)…</translation>
    </message>
    <message>
        <source>Exercise 3: type a token&apos;s vector, copy another token&apos;s, or copy it with a little noise</source>
        <translation>练习 3：直接输入一个词元的向量，复制另一个词元的向量，或复制后加一点噪声</translation>
    </message>
    <message>
        <source>Lo&amp;garithmic Colour Scale</source>
        <translation>对数色标(&amp;G)</translation>
    </message>
    <message>
        <source>Colour by the weights&apos; logarithm, a few decades below the largest: in long sentences and under a causal mask most weights are small, and a linear scale shows them all in its darkest colour</source>
        <translation>按权重的对数着色，色标从最大值往下延伸几个数量级：长句子和因果掩码下大多数权重都很小，线性色标会把它们全都画成最暗的颜色</translation>
    </message>
    <message>
        <source>Open &amp;Attention…</source>
        <translation>打开注意力文件(&amp;A)…</translation>
    </message>
    <message>
        <source>Open the attention weights of a real model from a .npz, .npy or .safetensors file, in a model view of its own</source>
        <translation>打开真实模型的注意力权重（.npz、.npy 或 .safetensors 文件），在单独的模型视图中显示</translation>
    </message>
    <message>
        <source>Open &amp;Model…</source>
        <translation>打开模型(&amp;M)…</translation>
    </message>
    <message>
        <source>Run a language model (GPT-2, Qwen, Llama, Mistral, BERT) from its Hugging Face folder, with every switch of the formula inside its layers</source>
        <translation>从 Hugging Face 文件夹运行语言模型（GPT-2、Qwen、Llama、Mistral、BERT），公式的每个开关都作用于其各层之内</translation>
    </message>
</context>
<context>
    <name>Model</name>
    <message>
        <source>%1: not enough memory to open the model.</source>
        <translation>%1：内存不足，无法打开模型。</translation>
    </message>
    <message>
        <source>Cannot Open Model</source>
        <translation>无法打开模型</translation>
    </message>
</context>
<context>
    <name>ModelComparison</name>
    <message>
        <source>A #%1</source>
        <comment>the rank the textbook model gives this token</comment>
        <translation>A 中第 %1</translation>
    </message>
    <message>
        <source>A: textbook · %1</source>
        <comment>heatmap title; %1 is the layer and head</comment>
        <translation>A：标准公式 · %1</translation>
    </message>
    <message>
        <source>B: switched · %1</source>
        <comment>heatmap title; %1 is the layer and head</comment>
        <translation>B：改了开关 · %1</translation>
    </message>
    <message>
        <source>same rank in B</source>
        <translation>在 B 中名次相同</translation>
    </message>
    <message>
        <source>same rank in A</source>
        <translation>在 A 中名次相同</translation>
    </message>
    <message>
        <source>#%1 in B (%2)</source>
        <comment>rank and probability in the switched model</comment>
        <translation>在 B 中第 %1（%2）</translation>
    </message>
    <message>
        <source>#%1 in A (%2)</source>
        <comment>rank and probability in the textbook model</comment>
        <translation>在 A 中第 %1（%2）</translation>
    </message>
    <message>
        <source>The top prediction changes from %1 to %2.</source>
        <translation>最可能的预测从 %1 变为 %2。</translation>
    </message>
    <message>
        <source>Both predict %1 first (A %2, B %3).</source>
        <translation>两边都最可能预测 %1（A %2，B %3）。</translation>
    </message>
    <message>
        <source>Their top %1 share %2 tokens.</source>
        <comment>%1 is k, as in top 10</comment>
        <translation>两边的前 %1 个中有 %2 个词元相同。</translation>
    </message>
    <message>
        <source>next token after %1</source>
        <translation>%1 之后的下一个词元</translation>
    </message>
    <message>
        <source>A: the textbook formula</source>
        <translation>A：标准公式</translation>
    </message>
    <message>
        <source>B: the textbook formula too</source>
        <translation>B：同样是标准公式</translation>
    </message>
    <message>
        <source>B: %1</source>
        <comment>%1 lists the departures</comment>
        <translation>B：%1</translation>
    </message>
    <message>
        <source>A&apos;s top %1: %2</source>
        <translation>A 的前 %1 个：%2</translation>
    </message>
    <message>
        <source>B&apos;s top %1: %2</source>
        <translation>B 的前 %1 个：%2</translation>
    </message>
    <message>
        <source>The two runs are of different texts; nothing to compare.</source>
        <translation>两次运行的文本不同，无法对比。</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <comment>two sentences, one after the other</comment>
        <translation>%1%2</translation>
    </message>
    <message>
        <source>no [MASK] in the text to fill in</source>
        <translation>文本里没有可填的 [MASK]</translation>
    </message>
    <message>
        <source>fill-ins for [MASK] at position %1</source>
        <translation>位置 %1 的 [MASK] 的填空</translation>
    </message>
    <message>
        <source>Type [MASK] in the sentence to compare what A and B fill in there.</source>
        <translation>在句子里输入 [MASK]，比较 A 和 B 在那里各填什么。</translation>
    </message>
    <message>
        <source>B departs from the textbook: %1.</source>
        <comment>%1 lists the departures from the textbook formula</comment>
        <translation>B 与教科书公式的不同之处：%1。</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <comment>a token and its probability</comment>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>Their top %1 share one token.</source>
        <comment>%1 is k, as in top 10</comment>
        <translation>两边的前 %1 个中有 1 个词元相同。</translation>
    </message>
</context>
<context>
    <name>Presets</name>
    <message>
        <source>The tutorial&apos;s 20 lines, number for number.</source>
        <translation>教程里的 20 行代码，数值逐一对得上。</translation>
    </message>
    <message>
        <source>Forgetting ÷√d_k at d_model 512: the softmax turns one-hot.</source>
        <translation>d_model 为 512 时忘除 √d_k：softmax 变成 one-hot。</translation>
    </message>
    <message>
        <source>softmax(dim=-2): the columns sum to 1, the rows do not.</source>
        <translation>softmax(dim=-2)：列和为 1，行和却不是。</translation>
    </message>
    <message>
        <source>softmax(dim=0): the two sentences share each weight.</source>
        <translation>softmax(dim=0)：两个句子分摊每一个权重。</translation>
    </message>
    <message>
        <source>The causal mask of a decoder: no token sees the future.</source>
        <translation>解码器的因果掩码：任何词元都看不到未来。</translation>
    </message>
    <message>
        <source>view(B, H, T, d_k) instead of transpose: heads mix tokens.</source>
        <translation>用 view(B, H, T, d_k) 代替 transpose：各个头把词元混在了一起。</translation>
    </message>
    <message>
        <source>Masking after the softmax: the rows no longer sum to 1.</source>
        <translation>在 softmax 之后施加掩码：行和不再为 1。</translation>
    </message>
    <message>
        <source>Every entry of a softmax masked: NaN with -inf, uniform with -1e9.</source>
        <translation>softmax 的所有输入都被掩盖：用 -inf 得到 NaN，用 -1e9 得到均匀分布。</translation>
    </message>
    <message>
        <source>Queries from one sentence, keys and values from another: T_q × T_k heatmaps.</source>
        <translation>查询来自一句话，键和值来自另一句：T_q × T_k 的热力图。</translation>
    </message>
    <message>
        <source>Exercise 3: a designed vector for 猫 draws 它&apos;s attention to 猫.</source>
        <translation>练习 3：为“猫”设计的向量把“它”的注意力吸引到“猫”上。</translation>
    </message>
    <message>
        <source>Exercise 3 in English: a designed vector for “cat” draws the attention of “it”.</source>
        <translation>英文版练习 3：为“cat”设计的向量吸引了“it”的注意力。</translation>
    </message>
    <message>
        <source>Grouped-query attention: 8 query heads share 2 K/V heads.</source>
        <translation>分组查询注意力：8 个查询头共用 2 个键/值头。</translation>
    </message>
    <message>
        <source>RoPE: the same two tokens, the same distance, the same score wherever they stand.</source>
        <translation>RoPE：同样的两个词元、同样的距离，无论出现在哪里，分数都相同。</translation>
    </message>
    <message>
        <source>QK-norm bounds the logits but does not replace ÷√d_k.</source>
        <translation>QK-norm 给 logit 设了上限，却代替不了 ÷√d_k。</translation>
    </message>
    <message>
        <source>ALiBi: positions without embeddings, weights that fade with the distance.</source>
        <translation>ALiBi：不用位置编码也有位置，权重随距离衰减。</translation>
    </message>
    <message>
        <source>Soft-capping the saturated logits: c·tanh(L/c) keeps the rows from going one-hot.</source>
        <translation>对饱和的 logit 做软截断：c·tanh(L/c) 让各行不再变成 one-hot。</translation>
    </message>
    <message>
        <source>A sliding window of 4 keys: a causal band instead of a triangle.</source>
        <translation>4 个键的滑动窗口：因果掩码从三角形变成一条带。</translation>
    </message>
    <message>
        <source>An attention sink: a head with nothing to attend to rests on the sink, not on token 0.</source>
        <translation>注意力汇聚点：无处可看的头把权重放在汇聚点上，而不是第 0 个词元上。</translation>
    </message>
</context>
<context>
    <name>Refusal</name>
    <message>
        <source>The text is too long: more than 2 GiB.</source>
        <translation>文本太长：超过 2 GiB。</translation>
    </message>
    <message>
        <source>The text is not valid UTF-8 at byte %1.</source>
        <translation>文本在第 %1 字节处不是有效的 UTF-8。</translation>
    </message>
    <message>
        <source>Line %1 has %2 tokens, more than the limit of %3 per sequence.</source>
        <translation>第 %1 行有 %2 个词元，超过了每个序列 %3 个的上限。</translation>
    </message>
    <message>
        <source>The text has more than %1 non-blank lines; each line is one sequence and the limit is %1.</source>
        <translation>文本的非空行超过 %1 行；每行是一个序列，上限为 %1。</translation>
    </message>
    <message>
        <source>The text is empty: type a sentence, one line per sequence.</source>
        <translation>文本为空：请输入一句话，每行一个序列。</translation>
    </message>
    <message>
        <source>Cross-attention needs a second text, for the keys and values.</source>
        <translation>交叉注意力需要第二段文本，作为键和值的来源。</translation>
    </message>
    <message>
        <source>The keys&apos; and values&apos; text has %1 lines and the queries&apos; text %2: give it one line, or one for each line of the queries.</source>
        <translation>键和值的文本有 %1 行，而查询的文本有 %2 行：请只写一行，或为查询的每一行各写一行。</translation>
    </message>
    <message>
        <source>d_model must be between %1 and %2, not %3.</source>
        <translation>d_model 必须在 %1 到 %2 之间，而不是 %3。</translation>
    </message>
    <message>
        <source>The number of heads must be between 1 and d_model (%1), not %2.</source>
        <translation>头数必须在 1 到 d_model（%1）之间，而不是 %2。</translation>
    </message>
    <message>
        <source>The number of heads (%1) must divide d_model (%2).</source>
        <translation>头数（%1）必须能整除 d_model（%2）。</translation>
    </message>
    <message>
        <source>The temperature must be a positive number.</source>
        <translation>温度必须是正数。</translation>
    </message>
    <message>
        <source>The temperature must be between 1e-06 and 1e+06.</source>
        <translation>温度必须在 1e-06 到 1e+06 之间。</translation>
    </message>
    <message>
        <source>A causal mask has no meaning in cross-attention: the keys come from the other text, so none of them is in a query&apos;s future.</source>
        <translation>因果掩码在交叉注意力中没有意义：键来自另一段文本，没有哪个键位于查询的“未来”。</translation>
    </message>
    <message>
        <source>This needs about %1 GiB of memory, more than the %2 GiB this machine can give; use fewer tokens, heads or lines.</source>
        <translation>这需要大约 %1 GiB 内存，超过了本机能提供的 %2 GiB；请减少词元、头数或行数。</translation>
    </message>
    <message>
        <source>Not enough memory for this configuration.</source>
        <translation>内存不足，无法计算这个配置。</translation>
    </message>
    <message>
        <source>In the keys&apos; and values&apos; text: %1</source>
        <extracomment>%1 is the refusal, e.g. &quot;The text is not valid UTF-8 at byte 3.&quot;</extracomment>
        <translation>键和值的文本中：%1</translation>
    </message>
    <message>
        <source>This needs about %1 GiB of memory together with the %2 GiB the heatmaps on screen hold until they are replaced, more than the %3 GiB this machine can give; use fewer tokens, heads or lines.</source>
        <extracomment>%1 GiB in all, %2 GiB of it held by the heatmaps shown now, %3 GiB available</extracomment>
        <translation>连同屏幕上的热力图在被替换前占用的 %2 GiB，这需要大约 %1 GiB 内存，超过了本机能提供的 %3 GiB；请减少词元、头数或行数。</translation>
    </message>
    <message>
        <source>The K/V heads (%1) must divide the number of heads (%2).</source>
        <translation>键/值头数（%1）必须能整除头数（%2）。</translation>
    </message>
    <message>
        <source>RoPE rotates pairs of features: d_k (%1) must be even.</source>
        <translation>RoPE 把特征两两配对旋转：d_k（%1）必须是偶数。</translation>
    </message>
    <message>
        <source>The RoPE base θ must be a positive number.</source>
        <translation>RoPE 的底数 θ 必须是正数。</translation>
    </message>
    <message>
        <source>The soft-capping c must be a positive number.</source>
        <translation>软截断的 c 必须是正数。</translation>
    </message>
    <message>
        <source>The sliding window must be between 1 and 4096 keys.</source>
        <translation>滑动窗口必须在 1 到 4096 个键之间。</translation>
    </message>
    <message>
        <source>The sink logit must be a finite number.</source>
        <translation>汇聚点的 logit 必须是有限数。</translation>
    </message>
    <message>
        <source>A sink is one more key in each row: it needs the softmax over the keys (dim=-1).</source>
        <translation>汇聚点是每一行多出的一个键：它要求 softmax 沿键（dim=-1）进行。</translation>
    </message>
</context>
<context>
    <name>Report</name>
    <message>
        <source>tokens</source>
        <comment>heading of the tokens</comment>
        <translation>词元</translation>
    </message>
    <message>
        <source>cross-attention, queries from</source>
        <comment>heading of the queries&apos; tokens</comment>
        <translation>交叉注意力，查询来自</translation>
    </message>
    <message>
        <source>keys and values from</source>
        <comment>heading of the keys&apos; tokens</comment>
        <translation>键和值来自</translation>
    </message>
    <message>
        <source>config:</source>
        <comment>before the switches, spelled as options</comment>
        <translation>配置:</translation>
    </message>
    <message>
        <source>std before scaling:</source>
        <comment>then the number</comment>
        <translation>缩放前标准差:</translation>
    </message>
    <message>
        <source>std after scaling:</source>
        <comment>then the number</comment>
        <translation>缩放后标准差:</translation>
    </message>
    <message>
        <source>scale</source>
        <comment>the factor: scale 0.2500</comment>
        <translation>缩放系数</translation>
    </message>
    <message>
        <source>temperature</source>
        <comment>temperature 1.0000</comment>
        <translation>温度</translation>
    </message>
    <message>
        <source>row sums:</source>
        <comment>of the weights; then a range</comment>
        <translation>权重行和:</translation>
    </message>
    <message>
        <source>column sums:</source>
        <comment>of the weights; then a range</comment>
        <translation>权重列和:</translation>
    </message>
    <message>
        <source>to</source>
        <comment>a range: 0.86 to 1.13</comment>
        <translation>到</translation>
    </message>
    <message>
        <source>no warnings</source>
        <translation>没有警告</translation>
    </message>
    <message>
        <source>warnings:</source>
        <comment>then one warning a line</comment>
        <translation>警告:</translation>
    </message>
    <message>
        <source>seq</source>
        <comment>heading of the heads&apos; table: the sequence&apos;s number</comment>
        <translation>序列</translation>
    </message>
    <message>
        <source>head</source>
        <comment>heading of the heads&apos; table</comment>
        <translation>头</translation>
    </message>
    <message>
        <source>ratio</source>
        <comment>heading of the heads&apos; table: std(L) / std(S)</comment>
        <translation>比值</translation>
    </message>
    <message>
        <source>entropy/max</source>
        <comment>heading of the heads&apos; table: mean entropy / its maximum</comment>
        <translation>熵/最大值</translation>
    </message>
    <message>
        <source>max w</source>
        <comment>heading of the heads&apos; table: the mean largest weight of a row</comment>
        <translation>最大权重</translation>
    </message>
    <message>
        <source>saturated</source>
        <comment>heading of the heads&apos; table: the share of saturated rows</comment>
        <translation>饱和</translation>
    </message>
    <message>
        <source>row sums</source>
        <comment>heading of the heads&apos; table: a range</comment>
        <translation>行和</translation>
    </message>
    <message>
        <source>col sums</source>
        <comment>heading of the heads&apos; table: a range</comment>
        <translation>列和</translation>
    </message>
</context>
<context>
    <name>Session</name>
    <message>
        <source>a list</source>
        <extracomment>What a session file holds instead of the expected value: a JSON array.</extracomment>
        <translation>列表</translation>
    </message>
    <message>
        <source>an object</source>
        <extracomment>What a session file holds instead of the expected value: a JSON object.</extracomment>
        <translation>对象</translation>
    </message>
    <message>
        <source>nothing</source>
        <translation>空（没有值）</translation>
    </message>
    <message>
        <source>The session&apos;s &quot;%1&quot; must be %2, not %3.</source>
        <extracomment>%1 is a field such as &quot;config.heads&quot;, %2 a kind of value such as &quot;a number&quot;, %3 what the file holds instead.</extracomment>
        <translation>会话中的“%1”应为 %2，而不是 %3。</translation>
    </message>
    <message>
        <source>The session has no &quot;%1&quot;.</source>
        <translation>会话中缺少“%1”。</translation>
    </message>
    <message>
        <source>a string</source>
        <translation>字符串</translation>
    </message>
    <message>
        <source>true or false</source>
        <translation>true 或 false</translation>
    </message>
    <message>
        <source>a whole number from %1 to %2</source>
        <extracomment>%1 and %2 are the smallest and the largest value allowed.</extracomment>
        <translation>%1 到 %2 之间的整数</translation>
    </message>
    <message>
        <source>The session&apos;s &quot;%1&quot; cannot be &quot;%2&quot;; it must be one of %3.</source>
        <extracomment>%1 is a field such as &quot;config.axis&quot;, %2 the unknown value, %3 the values allowed.</extracomment>
        <translation>会话中的“%1”不能是“%2”，只能是以下之一：%3。</translation>
    </message>
    <message>
        <source>The session&apos;s &quot;%1&quot; is too large to be exact as a number; write it as a string of digits.</source>
        <translation>会话中的“%1”太大，作为数字无法精确表示；请写成由数字组成的字符串。</translation>
    </message>
    <message>
        <source>a whole number from 0 to %1</source>
        <translation>0 到 %1 之间的整数</translation>
    </message>
    <message>
        <source>a number</source>
        <translation>数字</translation>
    </message>
    <message>
        <source>The session&apos;s &quot;%1&quot; is %2, beyond the range of float32.</source>
        <translation>会话中的“%1”为 %2，超出了 float32 的范围。</translation>
    </message>
    <message>
        <source>&quot;on&quot; or &quot;off&quot;</source>
        <translation>&quot;on&quot; 或 &quot;off&quot;</translation>
    </message>
    <message>
        <source>The file is larger than %1 MiB, too large to be a session.</source>
        <translation>文件大于 %1 MiB，太大了，不可能是会话文件。</translation>
    </message>
    <message>
        <source>The file is empty.</source>
        <translation>文件是空的。</translation>
    </message>
    <message>
        <source>The file is not valid JSON: %1 at byte %2.</source>
        <extracomment>%1 is Qt&apos;s description of the JSON error, %2 a byte offset.</extracomment>
        <translation>文件不是有效的 JSON：%1（第 %2 字节处）。</translation>
    </message>
    <message>
        <source>The file is not an AttnScope session (it has no &quot;format&quot;: &quot;%1&quot;).</source>
        <extracomment>%1 is &quot;attnscope-session&quot;, the marker every session file has.</extracomment>
        <translation>该文件不是 AttnScope 会话（其中没有 &quot;format&quot;: &quot;%1&quot;）。</translation>
    </message>
    <message>
        <source>The file is not an AttnScope session: its format is &quot;%1&quot;.</source>
        <translation>该文件不是 AttnScope 会话：它的格式是“%1”。</translation>
    </message>
    <message>
        <source>This session was saved by a newer AttnScope (format %1); this version reads format %2.</source>
        <extracomment>%1 is the file&apos;s format number, %2 the one this version reads.</extracomment>
        <translation>此会话由较新版本的 AttnScope 保存（格式 %1）；当前版本只能读取格式 %2。</translation>
    </message>
    <message>
        <source>Cannot save %1: %2</source>
        <extracomment>%1 is a file path, %2 the system&apos;s reason.</extracomment>
        <translation>无法保存 %1：%2</translation>
    </message>
    <message>
        <source>Cannot open %1: %2</source>
        <extracomment>%1 is a file path, %2 the system&apos;s reason.</extracomment>
        <translation>无法打开 %1：%2</translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <extracomment>%1 is a file path, %2 what is wrong with the file.</extracomment>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>The session&apos;s settings are invalid. %1</source>
        <extracomment>%1 is the problem, a sentence of its own, e.g. &quot;The number of heads (3) must divide d_model (16).&quot;</extracomment>
        <translation>会话中的设置无效。%1</translation>
    </message>
    <message>
        <source>The session&apos;s &quot;%1&quot; has %2 numbers; a vector has 1 to %3.</source>
        <extracomment>%2 numbers given, %3 = the largest d_model.</extracomment>
        <translation>会话中的“%1”有 %2 个数；一个向量应有 1 到 %3 个数。</translation>
    </message>
    <message>
        <source>a whole number from %1 to %2, or &quot;off&quot;</source>
        <translation>%1 到 %2 之间的整数，或 &quot;off&quot;</translation>
    </message>
    <message>
        <source>a positive number or &quot;off&quot;</source>
        <translation>正数或 &quot;off&quot;</translation>
    </message>
    <message>
        <source>a number or &quot;off&quot;</source>
        <translation>数字或 &quot;off&quot;</translation>
    </message>
</context>
<context>
    <name>Sweep table</name>
    <message>
        <source>The same text at each d_k (H = 1, d_model = d_k), without and with the 1/√d_k scaling.</source>
        <comment>the first line of attnscope sweep&apos;s table</comment>
        <translation>同一段文本在每个 d_k 下（H = 1，d_model = d_k），不缩放与乘以 1/√d_k 缩放的对比。</translation>
    </message>
    <message>
        <source>d_k</source>
        <comment>column heading</comment>
        <translation>d_k</translation>
    </message>
    <message>
        <source>std of the logits</source>
        <comment>heading of two columns</comment>
        <translation>logit 标准差</translation>
    </message>
    <message>
        <source>row entropy (bits)</source>
        <comment>heading of two columns</comment>
        <translation>行熵（比特）</translation>
    </message>
    <message>
        <source>largest weight</source>
        <comment>heading of two columns</comment>
        <translation>最大权重</translation>
    </message>
    <message>
        <source>Jacobian norm</source>
        <comment>heading of two columns</comment>
        <translation>雅可比范数</translation>
    </message>
    <message>
        <source>saturated rows</source>
        <comment>heading of two columns</comment>
        <translation>饱和行</translation>
    </message>
    <message>
        <source>unscaled</source>
        <comment>column heading: without 1/√d_k</comment>
        <translation>未缩放</translation>
    </message>
    <message>
        <source>scaled</source>
        <comment>column heading: with 1/√d_k</comment>
        <translation>已缩放</translation>
    </message>
    <message>
        <source>A uniform row has %1 bits; a saturated row puts ≥ %2 on one key.</source>
        <comment>%1 bits of entropy (2.000), %2 a weight (0.99)</comment>
        <translation>均匀的一行熵为 %1 比特；饱和的行把 ≥ %2 的权重给了一个键。</translation>
    </message>
    <message>
        <source>std after ALiBi/cap</source>
        <comment>heading of two columns: the std of the logits after ALiBi&apos;s bias and the soft-cap</comment>
        <translation>ALiBi/截断后标准差</translation>
    </message>
</context>
<context>
    <name>SystemError</name>
    <message>
        <source>no permission</source>
        <translation>没有权限</translation>
    </message>
    <message>
        <source>the disk is full</source>
        <translation>磁盘已满</translation>
    </message>
    <message>
        <source>the disk quota is used up</source>
        <translation>磁盘配额已用完</translation>
    </message>
    <message>
        <source>the file is too large</source>
        <translation>文件太大</translation>
    </message>
    <message>
        <source>no such file or folder</source>
        <translation>文件或文件夹不存在</translation>
    </message>
    <message>
        <source>the disk is read-only</source>
        <translation>磁盘是只读的</translation>
    </message>
    <message>
        <source>a part of the path is not a folder</source>
        <translation>路径中有一部分不是文件夹</translation>
    </message>
    <message>
        <source>it is a folder</source>
        <translation>这是一个文件夹</translation>
    </message>
    <message>
        <source>the name is too long</source>
        <translation>名称太长</translation>
    </message>
    <message>
        <source>the disk cannot be read or written</source>
        <translation>磁盘无法读写</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <extracomment>%1 is the reason in the interface&apos;s language, %2 the system&apos;s own words (&quot;Permission denied&quot;), kept for a search or a report.</extracomment>
        <translation>%1（%2）</translation>
    </message>
</context>
<context>
    <name>Warnings</name>
    <message>
        <source>Rows do not sum to 1 (they range from %1 to %2): the softmax ran over the queries (dim=-2), so each column sums to 1 instead. Set the axis to keys (dim=-1).</source>
        <translation>行和不为 1（在 %1 到 %2 之间）：softmax 是沿查询（dim=-2）做的，结果变成了每列之和为 1。请把 softmax 维度设为键（dim=-1）。</translation>
    </message>
    <message>
        <source>Rows do not sum to 1 (they range from %1 to %2): the softmax ran over the batch (dim=0), so each position sums to 1 across the sequences. Set the axis to keys (dim=-1).</source>
        <translation>行和不为 1（在 %1 到 %2 之间）：softmax 是沿批次（dim=0）做的，结果变成了同一位置在各条序列之间加起来为 1。请把 softmax 维度设为键（dim=-1）。</translation>
    </message>
    <message>
        <source>Rows do not sum to 1 (they range from %1 to %2): the mask was applied after the softmax, so the weight of masked keys was thrown away. Apply the mask before the softmax.</source>
        <translation>行和不为 1（在 %1 到 %2 之间）：掩码是在 softmax 之后才施加的，被掩盖的键分到的权重被直接丢掉了。请在 softmax 之前施加掩码。</translation>
    </message>
    <message>
        <source>%1% of rows are saturated (largest weight ≥ 0.99): turn √d_k scaling on.</source>
        <translation>%1% 的行已饱和（最大权重 ≥ 0.99）：请打开 √d_k 缩放。</translation>
    </message>
    <message>
        <source>%1% of rows are saturated (largest weight ≥ 0.99): the temperature τ = %2 sharpens the softmax; raise it towards 1.</source>
        <translation>%1% 的行已饱和（最大权重 ≥ 0.99）：温度 τ = %2 让 softmax 过于尖锐；请把它调高到接近 1。</translation>
    </message>
    <message>
        <source>%1% of rows are saturated (largest weight ≥ 0.99): the softmax is almost one-hot and passes little gradient back.</source>
        <translation>%1% 的行已饱和（最大权重 ≥ 0.99）：softmax 几乎成了 one-hot，能传回的梯度很少（梯度消失）。</translation>
    </message>
    <message>
        <source>NaN where every key is masked with -inf (row %1): a softmax of nothing but -inf is 0/0. Fill with -1e9, or leave a key unmasked.</source>
        <translation>所有键都被 -inf 掩盖的行出现了 NaN（行索引 %1）：全是 -inf 的 softmax 就是 0/0。请改用 -1e9 填充，或至少留一个键不掩盖。</translation>
    </message>
    <message>
        <source>NaN where every query is masked with -inf (column %1): the softmax runs over the queries (dim=-2). Set the axis to keys (dim=-1).</source>
        <translation>所有查询都被 -inf 掩盖的列出现了 NaN（列索引 %1）：softmax 是沿查询（dim=-2）做的。请把 softmax 维度设为键（dim=-1）。</translation>
    </message>
    <message>
        <source>NaN where a position is masked with -inf in every sequence (row %1): the softmax runs over the batch (dim=0). Set the axis to keys (dim=-1).</source>
        <translation>某个位置在每条序列中都被 -inf 掩盖，因此出现了 NaN（行索引 %1）：softmax 是沿批次（dim=0）做的。请把 softmax 维度设为键（dim=-1）。</translation>
    </message>
    <message>
        <source>Uniform weights where every key is masked (row %1): the fill -1e9 makes all the logits equal. With -inf they would be NaN.</source>
        <translation>所有键都被掩盖的行权重完全均匀（行索引 %1）：填充值 -1e9 让所有 logit 都相等。若用 -inf，这些行会变成 NaN。</translation>
    </message>
    <message>
        <source>%1% of rows are uniform: every key gets the same weight, so the head only averages the values. Lower the temperature τ or scale less.</source>
        <translation>%1% 的行是均匀的：每个键分到的权重都相同，这个头只是在对值求平均。请调低温度 τ，或减弱缩放。</translation>
    </message>
    <message>
        <source>The heads were split with view(B, H, T, d_k), which mixes tokens and features across heads. Split with view(B, T, H, d_k).transpose(1, 2).</source>
        <translation>这些头是用 view(B, H, T, d_k) 拆分的，会把词元和特征在头之间打乱。请改用 view(B, T, H, d_k).transpose(1, 2) 拆分。</translation>
    </message>
    <message>
        <source>The softmax is peaked: the largest weight of a row is %1 on average and its entropy %2 of at most %3 bits. Without √d_k scaling the logits spread √d_k = %4 times wider: turn √d_k scaling on.</source>
        <translation>softmax 过于尖锐：各行最大权重平均为 %1，熵为 %2 比特（最多 %3 比特）。不做 √d_k 缩放，logits 的分布会宽 √d_k = %4 倍：请打开 √d_k 缩放。</translation>
    </message>
    <message>
        <source>The softmax is peaked: the largest weight of a row is %1 on average and its entropy %2 of at most %3 bits. The temperature τ = %4 sharpens it; raise it towards 1.</source>
        <translation>softmax 过于尖锐：各行最大权重平均为 %1，熵为 %2 比特（最多 %3 比特）。温度 τ = %4 让它更尖锐；请把它调高到接近 1。</translation>
    </message>
    <message>
        <source>The softmax is peaked: the largest weight of a row is %1 on average and its entropy %2 of at most %3 bits, so each query reads mostly one key and little gradient flows back.</source>
        <translation>softmax 过于尖锐：各行最大权重平均为 %1，熵为 %2 比特（最多 %3 比特），每个查询几乎只读一个键，能传回的梯度很少。</translation>
    </message>
    <message>
        <source>%1% of rows are uniform: the soft-cap c = %2 squeezes every logit into (−c, c), too narrow to tell the keys apart. Raise c.</source>
        <translation>%1% 的行是均匀的：软截断 c = %2 把每个 logit 压进 (−c, c)，范围太窄，分不出各个键。请调大 c。</translation>
    </message>
    <message>
        <source>The sink takes more than half of the weight in %1 rows (at most %2): those queries attend to almost nothing, the head rests. A lower sink logit s gives the keys their weight back.</source>
        <translation>有 %1 行的汇聚点拿走了一半以上的权重（最多 %2）：这些查询几乎什么都不看，这个头在休息。调低汇聚点的 logit s，权重就会还给各个键。</translation>
    </message>
</context>
<context>
    <name>WindowDocks</name>
    <message>
        <source>Sentence and Formula</source>
        <translation>句子与公式</translation>
    </message>
    <message>
        <source>Statistics and Warnings</source>
        <translation>统计与警告</translation>
    </message>
    <message>
        <source>Preset</source>
        <translation>预设</translation>
    </message>
</context>
<context>
    <name>WindowExports</name>
    <message>
        <source>Nothing to export yet: the heatmaps are computing.</source>
        <translation>暂时没有可导出的内容：热力图还在计算中。</translation>
    </message>
    <message>
        <source>Figure copied.</source>
        <translation>图片已复制。</translation>
    </message>
</context>
<context>
    <name>attn::ui</name>
    <message>
        <source>Logit lens</source>
        <translation>Logit 透镜</translation>
    </message>
    <message>
        <source>after block %1</source>
        <translation>第 %1 块之后</translation>
    </message>
    <message>
        <source>Which heads matter for %1 at position %2</source>
        <translation>哪些头对位置 %2 上的 %1 重要</translation>
    </message>
    <message>
        <source>Each head knocked out alone: the change in log p. Red: the token loses without the head; blue: it gains. %1</source>
        <translation>逐个单独敲掉每个头：log p 的变化。红色：没有这个头时该词元的概率下降；蓝色：上升。%1</translation>
    </message>
    <message>
        <source>Previous-token</source>
        <translation>前一词元</translation>
    </message>
    <message>
        <source>Duplicate-token</source>
        <translation>重复词元</translation>
    </message>
    <message>
        <source>Induction</source>
        <translation>归纳</translation>
    </message>
    <message>
        <source>Head roles: %1 random tokens, twice (seed %2)</source>
        <translation>头的角色：%1 个随机词元，重复两次（种子 %2）</translation>
    </message>
    <message>
        <source>Head roles</source>
        <translation>头的角色</translation>
    </message>
    <message>
        <source>Attention rollout</source>
        <translation>注意力展开</translation>
    </message>
    <message>
        <source>Row %1, “%2”</source>
        <translation>第 %1 行，“%2”</translation>
    </message>
</context>
<context>
    <name>attn::ui::CompareDialog</name>
    <message>
        <source>The comparison is still being computed; export it in a moment.</source>
        <translation>对比结果还在计算中，请稍后再导出。</translation>
    </message>
    <message>
        <source>This is the textbook formula.</source>
        <translation>这是标准公式。</translation>
    </message>
    <message>
        <source>Departs from the textbook: %1.</source>
        <translation>与标准公式不同：%1。</translation>
    </message>
    <message>
        <source>; </source>
        <comment>separator between departures</comment>
        <translation>；</translation>
    </message>
    <message>
        <source>Both sides compute the same text and weights — “%1” · d_model %2 · heads %3 · d_k %4 · seed %5. Change them in the main window; here only the formula&apos;s switches differ.</source>
        <comment>%1 is the sentence</comment>
        <translation>两边使用相同的文本和权重——“%1” · d_model %2 · 头数 %3 · d_k %4 · 种子 %5。这些请在主窗口中修改；这里只有公式的开关不同。</translation>
    </message>
    <message>
        <source>A cannot be computed: %1</source>
        <translation>A 无法计算：%1</translation>
    </message>
    <message>
        <source>B cannot be computed: %1</source>
        <translation>B 无法计算：%1</translation>
    </message>
    <message>
        <source>Head %1</source>
        <comment>head chooser</comment>
        <translation>头 %1</translation>
    </message>
    <message>
        <source>Mean of the heads</source>
        <comment>head chooser</comment>
        <translation>各头平均</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <comment>sequence chooser</comment>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <source>Export the Comparison</source>
        <translation>导出对比结果</translation>
    </message>
    <message>
        <source>Compare Two Configurations</source>
        <translation>对比两种配置</translation>
    </message>
    <message>
        <source>Configuration A</source>
        <translation>配置 A</translation>
    </message>
    <message>
        <source>Configuration B</source>
        <translation>配置 B</translation>
    </message>
    <message>
        <source>Copy A → B</source>
        <translation>复制 A → B</translation>
    </message>
    <message>
        <source>Give B the switches of A; the difference becomes 0</source>
        <translation>把 A 的开关复制给 B；差值变为 0</translation>
    </message>
    <message>
        <source>Swap A ↔ B</source>
        <translation>交换 A ↔ B</translation>
    </message>
    <message>
        <source>Exchange the two configurations; the difference changes sign</source>
        <translation>交换两种配置；差值变号</translation>
    </message>
    <message>
        <source>&amp;Head:</source>
        <translation>头(&amp;H)：</translation>
    </message>
    <message>
        <source>&amp;Sequence:</source>
        <comment>which line of the batch</comment>
        <translation>序列(&amp;S)：</translation>
    </message>
    <message>
        <source>computing…</source>
        <translation>计算中…</translation>
    </message>
    <message>
        <source>&amp;Export…</source>
        <translation>导出(&amp;E)…</translation>
    </message>
    <message>
        <source>Save A, B and B − A side by side as PNG, SVG or PDF</source>
        <translation>把 A、B 和 B − A 并排保存为 PNG、SVG 或 PDF</translation>
    </message>
    <message>
        <source>Point at a cell of any heatmap to read it on all three</source>
        <translation>指向任一热力图的格子，即可在三张图上同时读出它的值</translation>
    </message>
</context>
<context>
    <name>attn::ui::ControlPanel</name>
    <message>
        <source>Input</source>
        <comment>group box: the sentences and their tokens</comment>
        <translation>输入</translation>
    </message>
    <message>
        <source>Type a sentence. Each line is one sequence of the batch; shorter lines are padded with &lt;pad&gt;.</source>
        <translation>输入一句话。每一行是批次中的一条序列；较短的行用 &lt;pad&gt; 填充。</translation>
    </message>
    <message>
        <source>&amp;Tokenizer:</source>
        <comment>how text is cut into tokens</comment>
        <translation>分词方式(&amp;T)：</translation>
    </message>
    <message>
        <source>Model</source>
        <comment>group box: the network&apos;s sizes and random draws</comment>
        <translation>模型</translation>
    </message>
    <message>
        <source>&amp;d_model:</source>
        <comment>the model width C; keep the symbol</comment>
        <translation>d_model(&amp;D)：</translation>
    </message>
    <message>
        <source>&amp;Heads:</source>
        <comment>number of attention heads H</comment>
        <translation>头数(&amp;H)：</translation>
    </message>
    <message>
        <source>&amp;Seed:</source>
        <comment>random seed</comment>
        <translation>随机种子(&amp;S)：</translation>
    </message>
    <message>
        <source>0 … 18446744073709551615</source>
        <translation>0 … 18446744073709551615</translation>
    </message>
    <message>
        <source>&amp;Embedding:</source>
        <comment>where the token vectors X come from</comment>
        <translation>嵌入(&amp;E)：</translation>
    </message>
    <message>
        <source>Formula</source>
        <comment>group box: the switches of softmax(QKᵀ/√d_k + M)·V</comment>
        <translation>公式</translation>
    </message>
    <message>
        <source>d_k = %1</source>
        <comment>features per head; keep the symbol</comment>
        <translation>d_k = %1</translation>
    </message>
    <message>
        <source>d_model %1 is outside %2 to %3, so %4 is used.</source>
        <comment>a typed d_model was brought into the range</comment>
        <translation>d_model %1 超出 %2 到 %3 的范围，因此改用 %4。</translation>
    </message>
    <message>
        <source>%1 heads do not divide d_model %2, so the nearest divisor, %3, is used.</source>
        <comment>heads must divide d_model</comment>
        <translation>头数 %1 不能整除 d_model %2，因此改用最接近的约数 %3。</translation>
    </message>
</context>
<context>
    <name>attn::ui::CrossInput</name>
    <message>
        <source>Atte&amp;ntion:</source>
        <comment>self- or cross-attention</comment>
        <translation>注意力(&amp;N)：</translation>
    </message>
    <message>
        <source>Self-attention: Q, K and V all come from the sentence above, so every token looks at the tokens of its own sentence. Cross-attention: Q comes from the sentence above and K, V from a second text, as a translation decoder&apos;s words look at the source sentence; the heatmaps become T_q × T_k.</source>
        <translation>自注意力：Q、K、V 都来自上面的句子，每个词元看的是同一句里的词元。交叉注意力：Q 来自上面的句子，K、V 来自第二段文本，就像翻译模型的解码器看源句子一样；热力图变成 T_q × T_k。</translation>
    </message>
    <message>
        <source>Keys &amp;and values from:</source>
        <comment>cross-attention&apos;s second text</comment>
        <translation>键和值来自(&amp;A)：</translation>
    </message>
    <message>
        <source>The second text: one line for every sequence above, or one line each.</source>
        <translation>第二段文本：一行供上面所有序列共用，或每个序列各一行。</translation>
    </message>
    <message>
        <source>Cross-attention&apos;s second text. Its tokens are the columns (keys) of every heatmap and give the values; the sentence above gives the rows (queries). One line serves every sequence above; otherwise give one line per sequence.</source>
        <translation>交叉注意力的第二段文本。它的词元是每张热力图的列（键），也提供值；上面的句子给出行（查询）。一行文本供上面所有序列共用；否则请为每个序列各写一行。</translation>
    </message>
    <message>
        <source>No causal mask here: the keys come from the other text, so none of them lies in a query&apos;s future.</source>
        <translation>这里没有因果掩码：键来自另一段文本，没有哪个键位于查询的“未来”。</translation>
    </message>
</context>
<context>
    <name>attn::ui::EmbeddingEditor</name>
    <message>
        <source>“%1” is not a number; x[%2] keeps its value.</source>
        <translation>“%1”不是数字；x[%2] 保持原值。</translation>
    </message>
    <message>
        <source>The embedding is torch.randn(B, T, C), which ignores the words: edited vectors count only with the embedding “Table”.</source>
        <translation>当前嵌入是 torch.randn(B, T, C)，与词无关：编辑过的向量只在“查表”嵌入下生效。</translation>
    </message>
    <message>
        <source>Positional encoding is on: x = this vector + PE(position).</source>
        <translation>位置编码已开启：x = 这个向量 + PE(位置)。</translation>
    </message>
    <message>
        <source>Edited vectors are shown in bold and saved with the session.</source>
        <translation>编辑过的向量以粗体显示，并随会话一起保存。</translation>
    </message>
    <message>
        <source>Embedding Editor</source>
        <translation>嵌入编辑器</translation>
    </message>
    <message>
        <source>&amp;Token:</source>
        <comment>the token whose vector is edited</comment>
        <translation>词元(&amp;T)：</translation>
    </message>
    <message>
        <source>value</source>
        <comment>one feature of the token&apos;s vector</comment>
        <translation>数值</translation>
    </message>
    <message>
        <source>Double-click a value to type a new one; the heatmaps follow.</source>
        <translation>双击一个数值即可输入新值；热力图随之更新。</translation>
    </message>
    <message>
        <source>&amp;From token:</source>
        <comment>copy a vector from another token</comment>
        <translation>来源词元(&amp;F)：</translation>
    </message>
    <message>
        <source>&amp;Copy its vector</source>
        <translation>复制它的向量(&amp;C)</translation>
    </message>
    <message>
        <source>Give the token exactly the other token&apos;s vector: their keys match, so a query cannot tell them apart.</source>
        <translation>让这个词元的向量与另一个完全相同：两者的键一样，查询无法区分它们。</translation>
    </message>
    <message>
        <source>&amp;Noise σ:</source>
        <translation>噪声 σ(&amp;N)：</translation>
    </message>
    <message>
        <source>Copy plus &amp;noise</source>
        <translation>复制并加噪声(&amp;O)</translation>
    </message>
    <message>
        <source>The other token&apos;s vector plus Gaussian noise of standard deviation σ: close, but not the same.</source>
        <translation>另一个词元的向量加上标准差为 σ 的高斯噪声：相近，但不相同。</translation>
    </message>
    <message>
        <source>&amp;Reset token</source>
        <translation>重置此词元(&amp;R)</translation>
    </message>
    <message>
        <source>Reset &amp;all</source>
        <translation>全部重置(&amp;A)</translation>
    </message>
</context>
<context>
    <name>attn::ui::ExportDialog</name>
    <message>
        <source>Export Figure</source>
        <translation>导出图片</translation>
    </message>
    <message>
        <source>%1 × %2 pixels at %3 dpi</source>
        <comment>PNG size</comment>
        <translation>%1 × %2 像素，%3 dpi</translation>
    </message>
    <message>
        <source>%1 × %2 cm, vector</source>
        <comment>page size</comment>
        <translation>%1 × %2 厘米，矢量</translation>
    </message>
    <message>
        <source>Show</source>
        <translation>显示内容</translation>
    </message>
    <message>
        <source>One &amp;head:</source>
        <translation>单个头(&amp;H)：</translation>
    </message>
    <message>
        <source>&amp;All heads, with their mean</source>
        <translation>所有头及其平均(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;Mean of the heads</source>
        <translation>各头平均(&amp;M)</translation>
    </message>
    <message>
        <source>File</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>&amp;Format:</source>
        <translation>格式(&amp;F)：</translation>
    </message>
    <message>
        <source>PNG for slides and the web; SVG and PDF stay sharp at any size</source>
        <translation>PNG 适合幻灯片和网页；SVG 和 PDF 在任何尺寸下都保持清晰</translation>
    </message>
    <message>
        <source>&amp;Scale:</source>
        <translation>放大倍数(&amp;S)：</translation>
    </message>
    <message>
        <source>×</source>
        <comment>scale factor suffix</comment>
        <translation>×</translation>
    </message>
    <message>
        <source>PNG pixels per point: 2× is sharp on most projectors</source>
        <translation>每磅对应的 PNG 像素数：2× 在大多数投影仪上已足够清晰</translation>
    </message>
    <message>
        <source>&amp;DPI:</source>
        <translation>DPI(&amp;D)：</translation>
    </message>
    <message>
        <source>from the scale</source>
        <translation>按放大倍数</translation>
    </message>
    <message>
        <source>Dots per inch for print; replaces the scale when set</source>
        <translation>打印用的每英寸点数；设置后取代放大倍数</translation>
    </message>
    <message>
        <source>Look</source>
        <translation>外观</translation>
    </message>
    <message>
        <source>&amp;Title:</source>
        <translation>标题(&amp;T)：</translation>
    </message>
    <message>
        <source>No title</source>
        <translation>无标题</translation>
    </message>
    <message>
        <source>&amp;Colormap:</source>
        <translation>色图(&amp;C)：</translation>
    </message>
    <message>
        <source>&amp;Label size:</source>
        <translation>标签字号(&amp;L)：</translation>
    </message>
    <message>
        <source> pt</source>
        <comment>unit: typographic points</comment>
        <translation> 磅</translation>
    </message>
    <message>
        <source>Ca&amp;ption with the configuration</source>
        <translation>附上配置说明(&amp;P)</translation>
    </message>
    <message>
        <source>Colour &amp;bar</source>
        <translation>色条(&amp;B)</translation>
    </message>
    <message>
        <source>&amp;Values in cells</source>
        <translation>格内数值(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Export…</source>
        <translation>导出(&amp;E)…</translation>
    </message>
    <message>
        <source>Preview of the figure</source>
        <translation>图片预览</translation>
    </message>
    <message>
        <source>Export Numbers</source>
        <translation>导出数值</translation>
    </message>
    <message>
        <source>&amp;Row and column sums</source>
        <translation>行和与列和(&amp;R)</translation>
    </message>
    <message>
        <source>Each row&apos;s sum right of the heatmap and each column&apos;s below it, in red where it is not 1</source>
        <translation>每行的和显示在热力图右侧，每列的和显示在下方，不为 1 的标成红色</translation>
    </message>
    <message>
        <source>Lo&amp;garithmic colour scale</source>
        <translation>对数色标(&amp;G)</translation>
    </message>
    <message>
        <source>Colour by the weights&apos; logarithm, a few decades below the largest: for long sentences and causal masks, whose small weights a linear scale shows all alike</source>
        <translation>按权重的对数着色，色标从最大值往下延伸几个数量级：适合长句子和因果掩码，它们的小权重在线性色标下看起来都一样</translation>
    </message>
    <message>
        <source>&amp;All heads</source>
        <comment>what to export, with one head</comment>
        <translation>所有头(&amp;A)</translation>
    </message>
</context>
<context>
    <name>attn::ui::FileHeadDialog</name>
    <message>
        <source>Layer %1 · head %2 · sequence %3</source>
        <translation>层 %1 · 头 %2 · 序列 %3</translation>
    </message>
    <message>
        <source>Layer %1 · head %2</source>
        <translation>层 %1 · 头 %2</translation>
    </message>
    <message>
        <source>%1 % of the queries put %2 or more of their weight on one key.</source>
        <translation>%1 % 的查询把 %2 或更多的权重给了一个键。</translation>
    </message>
    <message>
        <source>Show &amp;values in cells</source>
        <translation>在格子中显示数值(&amp;V)</translation>
    </message>
    <message>
        <source>Row and column &amp;sums</source>
        <translation>行和与列和(&amp;S)</translation>
    </message>
    <message>
        <source>Layer %1 · mean of the heads · sequence %2</source>
        <translation>层 %1 · 各头平均 · 序列 %2</translation>
    </message>
    <message>
        <source>Layer %1 · mean of the heads</source>
        <translation>层 %1 · 各头平均</translation>
    </message>
    <message>
        <source>Cannot tell the format of %1: name it .png, .svg, .pdf, .csv, .npy or .json.</source>
        <translation>无法判断 %1 的格式：请以 .png、.svg、.pdf、.csv、.npy 或 .json 结尾命名。</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <source>&amp;Export…</source>
        <translation>导出(&amp;E)…</translation>
    </message>
    <message>
        <source>Save what is shown as a figure (PNG, SVG, PDF) with its title and a caption naming the file, or its numbers (CSV, NPY, JSON)</source>
        <translation>把显示的内容保存为图片（PNG、SVG、PDF，带标题和注明文件的图注），或保存其数值（CSV、NPY、JSON）</translation>
    </message>
    <message numerus="yes">
        <source>Rows of this head that do not sum to 1: %n (sums from %1 to %2). The file&apos;s weights are shown as stored, not rescaled: a softmax over the keys makes every row sum to 1, so these weights were normalised otherwise, masked after the softmax, rounded, or are not attention weights.</source>
        <translation>
            <numerusform>这个头中行和不为 1 的行：%n 行（行和从 %1 到 %2）。文件中的权重按原样显示，没有重新缩放：对键做 softmax 会让每一行的和都为 1，所以这些权重要么用了别的归一化，要么在 softmax 之后才做了掩盖、被舍入过，或者根本不是注意力权重。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>NaN or infinite weights: %n (NaN %1, +inf %2, −inf %3), shown in magenta, counted, and left out of the head patterns.</source>
        <translation>
            <numerusform>NaN 或无穷大的权重：%n 个（NaN %1 个，+inf %2 个，−inf %3 个），以品红色显示并计数，不计入头的模式。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Query rows that spread their weight evenly over every key: %n.</source>
        <translation>
            <numerusform>把权重均匀地分给所有键的查询行：%n 行。</numerusform>
        </translation>
    </message>
    <message>
        <source>&amp;Compare…</source>
        <translation>对比(&amp;C)…</translation>
    </message>
    <message>
        <source>Show this head beside another head or layer mean of the same sequence, on one colour scale, with where and how much they differ</source>
        <translation>把这个头与同一序列的另一个头或某层的各头平均并排显示，使用同一色标，并给出两者差异的位置和大小</translation>
    </message>
    <message>
        <source>%1 queries × %2 keys · rows sum to %3 … %4 · mean entropy %5 of %6 bits over all rows · mean row max %7</source>
        <translation>%1 个查询 × %2 个键 · 行和 %3 … %4 · 所有行的平均熵 %5 比特（最多 %6 比特） · 行最大值均值 %7</translation>
    </message>
    <message>
        <source>Hover a cell to read its query, its key and the weight between them.</source>
        <translation>把鼠标悬停在格子上，可以查看它的查询、键以及两者之间的权重。</translation>
    </message>
</context>
<context>
    <name>attn::ui::FormulaBar</name>
    <message>
        <source>no scaling by √d_k</source>
        <translation>没有除以 √d_k 缩放</translation>
    </message>
    <message>
        <source>divided by √d_model instead of √d_k</source>
        <translation>除以 √d_model 而不是 √d_k</translation>
    </message>
    <message>
        <source>temperature τ = %1 instead of 1</source>
        <translation>温度 τ = %1 而不是 1</translation>
    </message>
    <message>
        <source>softmax over the queries (dim=-2) instead of the keys (dim=-1)</source>
        <translation>softmax 沿查询（dim=-2）而不是键（dim=-1）归一化</translation>
    </message>
    <message>
        <source>softmax over the batch (dim=0) instead of the keys (dim=-1)</source>
        <translation>softmax 沿批次（dim=0）而不是键（dim=-1）归一化</translation>
    </message>
    <message>
        <source>mask applied after the softmax instead of before</source>
        <translation>掩码在 softmax 之后而不是之前施加</translation>
    </message>
    <message>
        <source>&lt;pad&gt; tokens not masked</source>
        <translation>&lt;pad&gt; 词元未掩盖</translation>
    </message>
    <message>
        <source>heads split with view(B, H, T, d_k) instead of view(B, T, H, d_k).transpose(1, 2)</source>
        <translation>用 view(B, H, T, d_k) 而不是 view(B, T, H, d_k).transpose(1, 2) 拆分头</translation>
    </message>
    <message>
        <source>mask after softmax</source>
        <translation>掩码在 softmax 之后</translation>
    </message>
    <message>
        <source>heads split with view(B, H, T, d_k)</source>
        <translation>用 view(B, H, T, d_k) 拆分头</translation>
    </message>
    <message>
        <source>This is the textbook formula.</source>
        <translation>这是标准公式。</translation>
    </message>
    <message>
        <source>; </source>
        <comment>separator between departures</comment>
        <translation>；</translation>
    </message>
    <message>
        <source>1 departure from the textbook formula: %1.</source>
        <extracomment>%1 is the departure in plain words</extracomment>
        <translation>与标准公式有 1 处不同：%1。</translation>
    </message>
    <message>
        <source>%1 departures from the textbook formula: %2.</source>
        <extracomment>%1 is how many, %2 lists them separated by semicolons</extracomment>
        <translation>与标准公式有 %1 处不同：%2。</translation>
    </message>
    <message>
        <source>M: causal and padding, %1 above the diagonal and for &lt;pad&gt; keys</source>
        <translation>M：因果 + 填充掩码，对角线上方和 &lt;pad&gt; 键处为 %1</translation>
    </message>
    <message>
        <source>M: causal, %1 above the diagonal</source>
        <translation>M：因果掩码，对角线上方为 %1</translation>
    </message>
    <message>
        <source>M: padding, %1 for &lt;pad&gt; keys</source>
        <translation>M：填充掩码，&lt;pad&gt; 键处为 %1</translation>
    </message>
    <message>
        <source>cross-attention: &lt;i&gt;Q&lt;/i&gt; from the text, &lt;i&gt;K&lt;/i&gt; and &lt;i&gt;V&lt;/i&gt; from the second text</source>
        <translation>交叉注意力：&lt;i&gt;Q&lt;/i&gt; 来自文本，&lt;i&gt;K&lt;/i&gt; 和 &lt;i&gt;V&lt;/i&gt; 来自第二段文本</translation>
    </message>
    <message>
        <source>K and V shared: %1 query heads per K/V head</source>
        <translation>K 和 V 共用：每个键/值头对应 %1 个查询头</translation>
    </message>
    <message>
        <source>Q and K normalised by their RMS (QK-norm)</source>
        <translation>Q 和 K 按各自的 RMS 归一化（QK-norm）</translation>
    </message>
    <message>
        <source>Q and K rotated by their positions (RoPE, θ = %1)</source>
        <translation>Q 和 K 按位置旋转（RoPE，θ = %1）</translation>
    </message>
    <message>
        <source>ALiBi&apos;s linear bias −m_h·|i−j|</source>
        <translation>ALiBi 的线性偏置 −m_h·|i−j|</translation>
    </message>
    <message>
        <source>logits soft-capped at c = %1</source>
        <translation>logit 在 c = %1 处软截断</translation>
    </message>
    <message>
        <source>a sliding window of %1 keys</source>
        <translation>%1 个键的滑动窗口</translation>
    </message>
    <message>
        <source>a sink logit s = %1 in every row</source>
        <translation>每行多一个汇聚点 logit s = %1</translation>
    </message>
    <message>
        <source>&lt;i&gt;Q̂&lt;/i&gt;, &lt;i&gt;K̂&lt;/i&gt;: each row divided by its RMS</source>
        <translation>&lt;i&gt;Q̂&lt;/i&gt;、&lt;i&gt;K̂&lt;/i&gt;：每一行除以它的 RMS</translation>
    </message>
    <message>
        <source>&lt;i&gt;R&lt;/i&gt;&lt;sub&gt;&lt;i&gt;i&lt;/i&gt;&lt;/sub&gt;: rotation of position &lt;i&gt;i&lt;/i&gt;, &lt;i&gt;θ&lt;/i&gt; = %1</source>
        <translation>&lt;i&gt;R&lt;/i&gt;&lt;sub&gt;&lt;i&gt;i&lt;/i&gt;&lt;/sub&gt;：位置 &lt;i&gt;i&lt;/i&gt; 的旋转，&lt;i&gt;θ&lt;/i&gt; = %1</translation>
    </message>
    <message>
        <source>&lt;i&gt;m&lt;/i&gt;&lt;sub&gt;h&lt;/sub&gt; = %1 … %2</source>
        <comment>ALiBi&apos;s slopes of the first and the last head</comment>
        <translation>&lt;i&gt;m&lt;/i&gt;&lt;sub&gt;h&lt;/sub&gt; = %1 … %2</translation>
    </message>
    <message>
        <source>%1 query heads share each of the %2 K/V heads</source>
        <translation>%2 个键/值头，每个由 %1 个查询头共用</translation>
    </message>
    <message>
        <source>M_W: M and the sliding window, %1 where |i − j| ≥ %2</source>
        <translation>M_W：M 加滑动窗口，|i − j| ≥ %2 处为 %1</translation>
    </message>
    <message>
        <source>M_W: the sliding window, %1 where |i − j| ≥ %2</source>
        <translation>M_W：滑动窗口，|i − j| ≥ %2 处为 %1</translation>
    </message>
</context>
<context>
    <name>attn::ui::GenerateButton</name>
    <message>
        <source>Let It &amp;Write…</source>
        <translation>让它续写(&amp;W)…</translation>
    </message>
    <message>
        <source>Let the model write on from this text, token by token, with your switches and beside the model as trained</source>
        <translation>让模型从这段文本往下写，一个词元接一个词元，带着你的开关，并与训练时的模型并排</translation>
    </message>
    <message>
        <source>An encoder (BERT) fills in [MASK] tokens; it does not write on</source>
        <translation>编码器（BERT）填补 [MASK] 词元，不会往下续写</translation>
    </message>
</context>
<context>
    <name>attn::ui::GenerateDialog</name>
    <message>
        <source>Flip a switch or knock a head out in the window to write with it beside the model as trained.</source>
        <translation>在窗口中拨动一个开关或敲除一个头，就能让它与训练时的模型并排续写。</translation>
    </message>
    <message>
        <source>Writing…</source>
        <translation>正在续写…</translation>
    </message>
    <message>
        <source>As trained</source>
        <translation>训练时的模型</translation>
    </message>
    <message>
        <source>it wrote the model&apos;s end-of-text token</source>
        <translation>写出了模型的文本结束词元</translation>
    </message>
    <message>
        <source>the text reached the model&apos;s context length</source>
        <translation>文本达到了模型的上下文长度</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <source>the tokens asked for are written</source>
        <translation>要求的词元已全部写出</translation>
    </message>
    <message>
        <source>New tokens: %1; %2. %3</source>
        <translation>新词元：%1；%2。%3</translation>
    </message>
    <message>
        <source>Each token ran one row a layer (a KV cache).</source>
        <translation>每个词元在每层只算一行（KV 缓存）。</translation>
    </message>
    <message>
        <source>No KV cache: under these switches earlier rows read later tokens, so each token ran the whole text again.</source>
        <translation>没有 KV 缓存：在这些开关下，前面的行会读到后面的词元，所以每个词元都把整段文本重新算了一遍。</translation>
    </message>
    <message>
        <source>Let It Write</source>
        <translation>让它续写</translation>
    </message>
    <message>
        <source>New &amp;tokens:</source>
        <translation>新词元数(&amp;T)：</translation>
    </message>
    <message>
        <source>&amp;Choose:</source>
        <translation>选词方式(&amp;C)：</translation>
    </message>
    <message>
        <source>the most probable (greedy)</source>
        <translation>概率最高的（贪心）</translation>
    </message>
    <message>
        <source>by sampling</source>
        <translation>采样</translation>
    </message>
    <message>
        <source>Sampling t&amp;emperature:</source>
        <translation>采样温度(&amp;E)：</translation>
    </message>
    <message>
        <source>Divides the next-token logits before their softmax: below 1 the likely tokens grow likelier, above 1 the text wanders. Not the formula&apos;s τ (the switches&apos; temperature), which divides every layer&apos;s attention scores.</source>
        <translation>在 softmax 之前除下一个词元的 logits：小于 1 时高概率的词元更突出，大于 1 时文本更发散。这不是公式的 τ（开关里的温度），那个除的是每一层的注意力分数。</translation>
    </message>
    <message>
        <source>Top-&amp;k:</source>
        <translation>Top-&amp;k：</translation>
    </message>
    <message>
        <source>Draw from the k most probable tokens only (0: every token).</source>
        <translation>只从概率最高的 k 个词元中抽取（0：全部词元）。</translation>
    </message>
    <message>
        <source>Top-&amp;p:</source>
        <translation>Top-&amp;p：</translation>
    </message>
    <message>
        <source>Draw from the fewest most probable tokens whose probabilities reach p.</source>
        <translation>只从概率之和达到 p 的最少几个高概率词元中抽取。</translation>
    </message>
    <message>
        <source>The same seed draws the same text again.</source>
        <translation>同一种子会再次抽出同样的文本。</translation>
    </message>
    <message>
        <source>Row of &amp;layer:</source>
        <translation>显示哪一层的行(&amp;L)：</translation>
    </message>
    <message>
        <source>layer %1</source>
        <translation>第 %1 层</translation>
    </message>
    <message>
        <source>Side by side with the model as trained</source>
        <translation>与训练时的模型并排</translation>
    </message>
    <message>
        <source>&amp;Write</source>
        <translation>续写(&amp;W)</translation>
    </message>
    <message>
        <source>&amp;Stop</source>
        <translation>停止(&amp;S)</translation>
    </message>
    <message>
        <source>Show in &amp;Model View</source>
        <translation>在模型视图中显示(&amp;M)</translation>
    </message>
    <message>
        <source>Token %1: %2, probability %3 (the most probable: %4)</source>
        <translation>第 %1 个词元：%2，概率 %3（概率最高的：%4）</translation>
    </message>
    <message>
        <source>The model writes on from the window&apos;s text, one token at a time. Beside the model as trained, the model with your switches and knock-outs writes from the same text. The tint of each token is how much the newest token&apos;s row read it (in the layer chosen above, the mean of its heads).</source>
        <translation>模型从窗口中的文本往下写，一次一个词元。在训练时的模型旁边，带着你的开关和敲除的模型从同一段文本续写。每个词元的底色表示最新词元那一行读它的权重（上面所选的层，各头的平均）。</translation>
    </message>
    <message>
        <source>See&amp;d:</source>
        <translation>随机种子(&amp;D)：</translation>
    </message>
    <message>
        <source>The textbook formula in every layer, every head in place.</source>
        <translation>每一层都用教科书公式，每个头都在。</translation>
    </message>
    <message>
        <source>With your switches</source>
        <translation>带着你的开关</translation>
    </message>
</context>
<context>
    <name>attn::ui::HeadCompareDialog</name>
    <message>
        <source>Head %1</source>
        <translation>头 %1</translation>
    </message>
    <message>
        <source>Mean of the heads</source>
        <translation>各头平均</translation>
    </message>
    <message>
        <source>query %1 (row %2) → key %3 (column %4): A %5 · B %6 · B − A %7</source>
        <translation>查询 %1（行索引 %2）→ 键 %3（列索引 %4）：A %5 · B %6 · B − A %7</translation>
    </message>
    <message>
        <source>Compare with &amp;layer</source>
        <translation>对比的层(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;head</source>
        <translation>头(&amp;H)</translation>
    </message>
    <message>
        <source>Compare: %1 and %2</source>
        <translation>对比：%1 与 %2</translation>
    </message>
    <message>
        <source>A: %1</source>
        <translation>A：%1</translation>
    </message>
    <message>
        <source>B: %1</source>
        <translation>B：%1</translation>
    </message>
    <message>
        <source>Largest |A − B| %1 at query %2 (row %3) → key %4 (column %5) · mean |A − B| %6</source>
        <translation>最大 |A − B| 为 %1，在查询 %2（行索引 %3）→ 键 %4（列索引 %5） · 平均 |A − B| %6</translation>
    </message>
    <message>
        <source>No cell where both weights are finite.</source>
        <translation>没有两边权重都有限的格子。</translation>
    </message>
    <message>
        <source>%1: rows sum to %2 … %3 · mean entropy %4 bits</source>
        <translation>%1：行和 %2 … %3 · 平均熵 %4 比特</translation>
    </message>
</context>
<context>
    <name>attn::ui::HeadDialog</name>
    <message>
        <source>Zoom: %1 px per cell</source>
        <translation>显示比例：每格 %1 像素</translation>
    </message>
    <message>
        <source>Cell size; Ctrl + mouse wheel over the heatmap zooms too</source>
        <translation>格子大小；在热力图上按住 Ctrl 转动鼠标滚轮也能放大缩小</translation>
    </message>
    <message>
        <source>Fit to window</source>
        <translation>适合窗口</translation>
    </message>
    <message>
        <source>Hover a cell to read its weight, logit and score.</source>
        <translation>把鼠标悬停在格子上，可查看它的权重、logit 和分数。</translation>
    </message>
</context>
<context>
    <name>attn::ui::HeadImportanceButton</name>
    <message>
        <source>Which &amp;Heads Matter…</source>
        <translation>哪些头重要(&amp;H)…</translation>
    </message>
    <message>
        <source>Knock out each head alone and see which ones the prediction needs</source>
        <translation>逐个单独敲掉每个头，看预测需要哪些头</translation>
    </message>
</context>
<context>
    <name>attn::ui::HeadImportanceDialog</name>
    <message>
        <source>%1 (%2 now)</source>
        <translation>%1（目前 %2）</translation>
    </message>
    <message>
        <source>The text has no [MASK]: there is no prediction to read.</source>
        <translation>文本中没有 [MASK]：没有可读的预测。</translation>
    </message>
    <message>
        <source>The window has run another text or other switches since this scan: Scan again to follow it.</source>
        <translation>这次扫描之后，窗口已经换了文本或开关：再扫描一次以跟上。</translation>
    </message>
    <message>
        <source>Knocking out each head alone…</source>
        <translation>正在逐个单独敲掉每个头…</translation>
    </message>
    <message>
        <source>Cancelled.</source>
        <translation>已取消。</translation>
    </message>
    <message>
        <source>Head %1.%2 knocked out: log p(%3) changes by %4 (p ×%5)</source>
        <translation>敲掉头 %1.%2：log p(%3) 变化 %4（p ×%5）</translation>
    </message>
    <message>
        <source>Head %1.%2 matters most for %3 at position %4: knocked out alone, it changes log p by %5. Red: the token loses without the head; blue: it gains.</source>
        <translation>对位置 %4 上的 %3 来说，头 %1.%2 最重要：单独敲掉它，log p 变化 %5。红色：没有这个头，该词元的概率下降；蓝色：上升。</translation>
    </message>
    <message>
        <source>No head changes the probability of %1.</source>
        <translation>没有哪个头改变 %1 的概率。</translation>
    </message>
    <message>
        <source>Which Heads Matter</source>
        <translation>哪些头重要</translation>
    </message>
    <message>
        <source>Each head knocked out alone (as the window&apos;s knock-out mode says: its output set to 0 or to its mean), everything else as the window runs it: how the log-probability of the target token changes where the model predicts. Each run starts at the head&apos;s own layer from the intact run&apos;s residual stream.</source>
        <translation>逐个单独敲掉每个头（按窗口的敲除方式：输出置为 0 或换成平均值），其他一切照窗口的运行方式：看模型预测位置上目标词元的对数概率如何变化。每次运行都从该头所在的层开始，使用完整运行的残差流。</translation>
    </message>
    <message>
        <source>&amp;Target:</source>
        <translation>目标(&amp;T)：</translation>
    </message>
    <message>
        <source>&amp;Scan</source>
        <translation>扫描(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Cancel</source>
        <translation>取消(&amp;C)</translation>
    </message>
    <message>
        <source>Scan first: there is no result to export yet.</source>
        <translation>请先扫描：还没有可导出的结果。</translation>
    </message>
    <message>
        <source>Export Which Heads Matter</source>
        <translation>导出“哪些头重要”</translation>
    </message>
    <message>
        <source>&amp;Export…</source>
        <translation>导出(&amp;E)…</translation>
    </message>
    <message>
        <source>The table as PNG, SVG or PDF, or the changes as CSV or JSON</source>
        <translation>把表格保存为 PNG、SVG 或 PDF，或把变化值保存为 CSV 或 JSON</translation>
    </message>
    <message>
        <source>Name a token: “%1” is none.</source>
        <translation>请给出一个词元：“%1”什么也不是。</translation>
    </message>
    <message>
        <source>“%1” is %2 tokens to this model: name one token (a leading space is part of a word&apos;s token).</source>
        <translation>对这个模型而言，“%1”是 %2 个词元：请只给出一个词元（开头的空格是单词词元的一部分）。</translation>
    </message>
    <message>
        <source>One of the top 10 where the model predicts, or type a token of your own (“␣mat”, or &quot; mat&quot; with GPT-2&apos;s leading space).</source>
        <translation>从模型预测处的前 10 名中选一个，或自己输入一个词元（“␣mat”，或带 GPT-2 开头空格的 &quot; mat&quot;）。</translation>
    </message>
</context>
<context>
    <name>attn::ui::HeadPatternsModel</name>
    <message>
        <source>—</source>
        <comment>a measure that has no meaning here</comment>
        <translation>—</translation>
    </message>
    <message>
        <source>Not measured: previous and self have no meaning in cross-attention</source>
        <translation>未测量：在交叉注意力中，“前一个”和“自身”没有意义</translation>
    </message>
    <message>
        <source>Layer</source>
        <translation>层</translation>
    </message>
    <message>
        <source>Head</source>
        <translation>头</translation>
    </message>
    <message>
        <source>Previous</source>
        <comment>head pattern: weight on the previous token</comment>
        <translation>前一个</translation>
    </message>
    <message>
        <source>Self</source>
        <comment>head pattern: weight on the token itself</comment>
        <translation>自身</translation>
    </message>
    <message>
        <source>First</source>
        <comment>head pattern: weight on the first token</comment>
        <translation>首个</translation>
    </message>
    <message>
        <source>Entropy</source>
        <comment>head pattern: mean entropy in bits</comment>
        <translation>熵</translation>
    </message>
    <message>
        <source>Mean weight each query gives the token just before it</source>
        <translation>每个查询给紧挨在它前面的词元的平均权重</translation>
    </message>
    <message>
        <source>Mean weight each query gives itself</source>
        <translation>每个查询给自身的平均权重</translation>
    </message>
    <message>
        <source>Mean weight on the first token (the &quot;sink&quot;)</source>
        <translation>给第一个词元（“汇聚点”）的平均权重</translation>
    </message>
    <message>
        <source>attention sink (first token)</source>
        <comment>a head that puts most of its weight on the first token</comment>
        <translation>注意力汇聚（首个词元）</translation>
    </message>
    <message>
        <source>previous token</source>
        <comment>a head that puts most of its weight on the token before</comment>
        <translation>前一个词元</translation>
    </message>
    <message>
        <source>self</source>
        <comment>a head that puts most of its weight on the token itself</comment>
        <translation>自身</translation>
    </message>
    <message>
        <source>broad</source>
        <comment>a head that spreads its weight evenly over the keys</comment>
        <translation>分散</translation>
    </message>
    <message>
        <source>no clear pattern</source>
        <comment>a head that none of the named patterns describes</comment>
        <translation>无明显模式</translation>
    </message>
    <message>
        <source>What the head does most, from its numbers: previous token, self or attention sink (first token) when that column exceeds %1 — more than half of the queries&apos; weight, on average (a sink parks its weight on the first token whatever it is: Xiao et al., 2023); otherwise broad when the entropy is at least %2 of the most it could be over the keys each query weighs; otherwise no clear pattern. Untrained (random) heads are mostly broad.</source>
        <extracomment>%1 and %2 are thresholds such as 0.5 and 80%</extracomment>
        <translation>根据各列数值判断这个头最主要在做什么：若“前一个”“自身”或“首个”某列超过 %1——平均而言查询一半以上的权重都在那里——就分别称为“前一个词元”“自身”或“注意力汇聚（首个词元）”（汇聚头不论首个词元是什么，都把权重停放在它上面：Xiao 等，2023）；否则，若熵至少达到各查询所分配权重的键上可能最大熵的 %2，称为“分散”；其余为“无明显模式”。未训练（随机）的头大多是“分散”。</translation>
    </message>
    <message>
        <source>Pattern</source>
        <comment>head pattern: what the head does most</comment>
        <translation>模式</translation>
    </message>
    <message>
        <source>Mean entropy of a query&apos;s weights in bits, over the queries after the first (query 0 is left out, as in the other columns: under a causal mask it sees one key); 0 when a query looks at one key, log2 of the keys it sees when at all alike. The head view&apos;s mean entropy averages every row.</source>
        <translation>查询权重的平均熵（比特），只对第一个之后的查询求平均（与其他列一样不计查询 0：在因果掩码下它只能看到一个键）；查询只看一个键时为 0，均匀看所有可见键时为 log2(可见键数)。头视图中的平均熵则对所有行求平均。</translation>
    </message>
</context>
<context>
    <name>attn::ui::HeadRolesButton</name>
    <message>
        <source>Find &amp;Induction Heads…</source>
        <translation>寻找归纳头(&amp;I)…</translation>
    </message>
    <message>
        <source>Run a random text repeated twice and find the previous-token, duplicate-token and induction heads</source>
        <translation>运行一段重复两次的随机文本，找出前一词元头、重复词元头和归纳头</translation>
    </message>
</context>
<context>
    <name>attn::ui::HeadRolesDialog</name>
    <message>
        <source>Running the model on %1 random tokens, twice…</source>
        <translation>正在用 %1 个随机词元（重复两次）运行模型…</translation>
    </message>
    <message>
        <source>Cancelled.</source>
        <translation>已取消。</translation>
    </message>
    <message>
        <source>Head %1 · %2 score %3</source>
        <translation>头 %1 · %2得分 %3</translation>
    </message>
    <message>
        <source>%1 random tokens (seed %2), then the same again; scored on the second copy. The model view marks each head whose strongest score is at least %3: P previous-token, D duplicate-token, I induction.</source>
        <translation>%1 个随机词元（种子 %2），再重复一遍；在第二遍上打分。模型视图标出最强得分不低于 %3 的头：P 前一词元头，D 重复词元头，I 归纳头。</translation>
    </message>
    <message>
        <source>P</source>
        <comment>previous-token head</comment>
        <translation>P</translation>
    </message>
    <message>
        <source>previous-token head (%1)</source>
        <translation>前一词元头（%1）</translation>
    </message>
    <message>
        <source>D</source>
        <comment>duplicate-token head</comment>
        <translation>D</translation>
    </message>
    <message>
        <source>duplicate-token head (%1)</source>
        <translation>重复词元头（%1）</translation>
    </message>
    <message>
        <source>I</source>
        <comment>induction head</comment>
        <translation>I</translation>
    </message>
    <message>
        <source>induction head (%1)</source>
        <translation>归纳头（%1）</translation>
    </message>
    <message>
        <source>Head %1 copies what followed the earlier occurrence (induction %2).</source>
        <translation>头 %1 复制前一次出现之后的词元（归纳 %2）。</translation>
    </message>
    <message>
        <source>Head %1 looks at the token just before (previous-token %2).</source>
        <translation>头 %1 注意紧挨着的前一个词元（前一词元 %2）。</translation>
    </message>
    <message>
        <source>Head %1 looks back at the same token&apos;s earlier occurrence (duplicate-token %2).</source>
        <translation>头 %1 回看同一词元的前一次出现（重复词元 %2）。</translation>
    </message>
    <message>
        <source>No induction head: the highest induction score is head %1&apos;s, %2.</source>
        <translation>没有归纳头：归纳得分最高的是头 %1，为 %2。</translation>
    </message>
    <message>
        <source>No previous-token head: the highest score is head %1&apos;s, %2.</source>
        <translation>没有前一词元头：得分最高的是头 %1，为 %2。</translation>
    </message>
    <message>
        <source>No duplicate-token head: the highest score is head %1&apos;s, %2.</source>
        <translation>没有重复词元头：得分最高的是头 %1，为 %2。</translation>
    </message>
    <message>
        <source>The window&apos;s switches have changed since this test, so its marks are gone: Run again to score the heads under the new ones.</source>
        <translation>自这次测试以来窗口的开关已改变，标记已清除：请再次运行，在新的开关下为各个头打分。</translation>
    </message>
    <message>
        <source>Run the test first: there are no scores to export yet.</source>
        <translation>请先运行测试：还没有可导出的得分。</translation>
    </message>
    <message>
        <source>Export Head Roles</source>
        <translation>导出头的角色</translation>
    </message>
    <message>
        <source>Head Roles</source>
        <translation>头的角色</translation>
    </message>
    <message>
        <source>N random tokens, then the same N again, run under the window&apos;s switches and knock-outs. On the second copy a &lt;b&gt;previous-token&lt;/b&gt; head looks at the token just before, a &lt;b&gt;duplicate-token&lt;/b&gt; head at the same token&apos;s earlier occurrence, and an &lt;b&gt;induction&lt;/b&gt; head at the token that followed it — the copy it predicts (Olsson et al. 2022; scored as TransformerLens&apos;s head detector scores them).</source>
        <translation>N 个随机词元，再重复同样的 N 个，在窗口当前的开关和敲除下运行。在第二遍上，&lt;b&gt;前一词元头&lt;/b&gt;注意紧挨着的前一个词元，&lt;b&gt;重复词元头&lt;/b&gt;注意同一词元的前一次出现，&lt;b&gt;归纳头&lt;/b&gt;注意那次出现之后的词元——也就是它预测要复制的内容（Olsson 等，2022；打分方式同 TransformerLens 的头检测器）。</translation>
    </message>
    <message>
        <source>This model reads both ways: its heads can also look ahead, which these scores do not count, and induction is what a model predicting the next token learns; compare it with GPT-2&apos;s.</source>
        <translation>这个模型双向阅读：它的头也能向后看，而这些得分不计这一点；归纳是预测下一个词元的模型学到的能力，请与 GPT-2 的结果对照。</translation>
    </message>
    <message>
        <source>&amp;Tokens a copy (N):</source>
        <translation>每遍词元数 (N)(&amp;T)：</translation>
    </message>
    <message>
        <source>&amp;Seed:</source>
        <translation>种子(&amp;S)：</translation>
    </message>
    <message>
        <source>&amp;Run</source>
        <translation>运行(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Cancel</source>
        <translation>取消(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Export…</source>
        <translation>导出(&amp;E)…</translation>
    </message>
    <message>
        <source>The three heatmaps as PNG, SVG or PDF, or the scores as CSV or JSON</source>
        <translation>把三张热力图保存为 PNG、SVG 或 PDF，或把得分保存为 CSV 或 JSON</translation>
    </message>
</context>
<context>
    <name>attn::ui::HeatmapGrid</name>
    <message>
        <source>Mean of the heads</source>
        <comment>heatmap title</comment>
        <translation>各头平均</translation>
    </message>
    <message>
        <source>Head %1</source>
        <comment>heatmap title</comment>
        <translation>头 %1</translation>
    </message>
    <message>
        <source>Cannot compute</source>
        <comment>over grey heatmaps, before the reason</comment>
        <translation>无法计算</translation>
    </message>
    <message>
        <source>The grey heatmaps are those of the last input that could be computed.</source>
        <translation>灰色的热力图来自上一次能够计算的输入。</translation>
    </message>
    <message>
        <source>Head %1 · K/V %2</source>
        <comment>heatmap title: query head, the K/V head it reads</comment>
        <translation>头 %1 · 键/值 %2</translation>
    </message>
</context>
<context>
    <name>attn::ui::HeatmapView</name>
    <message>
        <source>NaN</source>
        <comment>not a number</comment>
        <translation>NaN</translation>
    </message>
    <message>
        <source>+inf</source>
        <comment>plus infinity</comment>
        <translation>+inf</translation>
    </message>
    <message>
        <source>-inf</source>
        <comment>minus infinity</comment>
        <translation>-inf</translation>
    </message>
    <message>
        <source>masked</source>
        <comment>the mask hides this key from this query</comment>
        <translation>已掩盖</translation>
    </message>
    <message>
        <source>weight %1</source>
        <comment>attention weight of one cell</comment>
        <translation>权重 %1</translation>
    </message>
    <message>
        <source>logit %1</source>
        <comment>scaled score after the mask fill</comment>
        <translation>logit %1</translation>
    </message>
    <message>
        <source>score %1</source>
        <comment>q·k before scaling</comment>
        <translation>分数 %1</translation>
    </message>
    <message>
        <source>query %1 (row %2) → key %3 (column %4): %5</source>
        <comment>hover text; %5 lists the cell&apos;s values</comment>
        <translation>查询 %1（行索引 %2）→ 键 %3（列索引 %4）：%5</translation>
    </message>
    <message>
        <source>computing…</source>
        <comment>a heatmap waits for its new weights</comment>
        <translation>计算中…</translation>
    </message>
    <message>
        <source>%1 queries × %2 keys</source>
        <comment>a heatmap&apos;s shape, for screen readers</comment>
        <translation>%1 个查询 × %2 个键</translation>
    </message>
</context>
<context>
    <name>attn::ui::HelpDialog</name>
    <message>
        <source>How to Read These Heatmaps</source>
        <translation>如何阅读热力图</translation>
    </message>
    <message>
        <source>&lt;h2&gt;How to read these heatmaps&lt;/h2&gt;&lt;p&gt;Each square is one head&apos;s attention weights &lt;b&gt;P = softmax(QKᵀ/√d_k + M)&lt;/b&gt;. &lt;b&gt;Row i&lt;/b&gt; is the query token i: the word that is looking. &lt;b&gt;Column j&lt;/b&gt; is the key token j: the word being looked at. The colour of cell (i, j) is how much of word j&apos;s value vector flows into word i&apos;s output. Rows and columns are numbered from 0, as PyTorch indexes them.&lt;/p&gt;&lt;h3&gt;What to look for&lt;/h3&gt;&lt;ul&gt;&lt;li&gt;&lt;b&gt;Every row sums to 1.&lt;/b&gt; The softmax runs over the keys (dim=-1), so each query hands out exactly one unit of attention. If the sums in the statistics are not 1, the softmax ran over the wrong axis, or the mask came after it.&lt;/li&gt;&lt;li&gt;&lt;b&gt;A bright diagonal&lt;/b&gt;: tokens attend to themselves. Common in untrained weights.&lt;/li&gt;&lt;li&gt;&lt;b&gt;One bright cell per row&lt;/b&gt;: the row is saturated (largest weight ≥ 0.99). The softmax is almost one-hot and passes almost no gradient. Without √d_k scaling this happens as d_model grows: try d_model 512 with scaling off.&lt;/li&gt;&lt;li&gt;&lt;b&gt;Flat rows&lt;/b&gt;: every key gets the same weight; the head only averages.&lt;/li&gt;&lt;li&gt;&lt;b&gt;Hatched grey cells&lt;/b&gt; are masked: the causal mask hides future keys (j &amp;gt; i), the padding mask hides &amp;lt;pad&amp;gt; keys. &lt;b&gt;Magenta cells&lt;/b&gt; are NaN or ±∞: a row whose keys are all masked with -inf has nothing to normalise.&lt;/li&gt;&lt;li&gt;&lt;b&gt;A long sentence under a causal mask looks dark&lt;/b&gt;: the first row&apos;s only weight is 1 and later rows&apos; weights are about 1/i, so the linear colour scale leaves them in its darkest colours. View → Logarithmic Colour Scale gives each decade of weight the same share of colours.&lt;/li&gt;&lt;li&gt;&lt;b&gt;A rectangle, not a square&lt;/b&gt;: cross-attention. The rows are the sentence&apos;s tokens (T_q queries), the columns the second text&apos;s (T_k keys), as a translation decoder looks at its source; rows still sum to 1, and there is no causal mask.&lt;/li&gt;&lt;/ul&gt;&lt;h3&gt;Try this&lt;/h3&gt;&lt;ol&gt;&lt;li&gt;Raise d_model from 16 to 512 and watch the std before scaling grow like √d_k, while the std after scaling stays near 1.&lt;/li&gt;&lt;li&gt;Set the softmax axis to queries (dim=-2) and compare the row sums with the column sums.&lt;/li&gt;&lt;li&gt;Switch the head split to “view only” and see the heads lose the token structure.&lt;/li&gt;&lt;/ol&gt;&lt;p&gt;Hover a cell to read its weight, its logit (after scaling and mask) and its raw score q·k. Click a head to open it large.&lt;/p&gt;</source>
        <translation>&lt;h2&gt;如何阅读这些热力图&lt;/h2&gt;&lt;p&gt;每个方块是一个头的注意力权重 &lt;b&gt;P = softmax(QKᵀ/√d_k + M)&lt;/b&gt;。&lt;b&gt;第 i 行&lt;/b&gt;是查询词元（token）i：正在“看”的那个词。&lt;b&gt;第 j 列&lt;/b&gt;是键词元 j：被看的那个词。格子 (i, j) 的颜色表示词 j 的值向量有多少流入词 i 的输出。行和列都从 0 开始编号，与 PyTorch 的索引一致。&lt;/p&gt;&lt;h3&gt;看什么&lt;/h3&gt;&lt;ul&gt;&lt;li&gt;&lt;b&gt;每行之和为 1。&lt;/b&gt;softmax 沿键（dim=-1）归一化，所以每个查询正好分出一份注意力。如果统计中的行和不是 1，说明 softmax 的维度选错了，或者掩码放在了它之后。&lt;/li&gt;&lt;li&gt;&lt;b&gt;对角线很亮&lt;/b&gt;：词元在关注自己。未训练的权重中很常见。&lt;/li&gt;&lt;li&gt;&lt;b&gt;每行只有一个亮格&lt;/b&gt;：这一行已饱和（最大权重 ≥ 0.99）。softmax 几乎成了 one-hot，几乎传不回梯度（梯度消失）。不做 √d_k 缩放时，d_model 越大越容易出现：试试 d_model 取 512 并关闭缩放。&lt;/li&gt;&lt;li&gt;&lt;b&gt;平坦的行&lt;/b&gt;：每个键得到相同的权重；这个头只是在求平均。&lt;/li&gt;&lt;li&gt;&lt;b&gt;灰色斜纹格子&lt;/b&gt;是被掩盖的：因果掩码遮住未来的键（j &amp;gt; i），填充掩码遮住 &amp;lt;pad&amp;gt; 键。&lt;b&gt;品红色格子&lt;/b&gt;是 NaN 或 ±∞：所有键都被 -inf 掩盖的行没有可以归一化的东西。&lt;/li&gt;&lt;li&gt;&lt;b&gt;因果掩码下的长句子看起来一片暗&lt;/b&gt;：第一行唯一的权重是 1，之后各行的权重大约是 1/i，线性色标把它们都画成最暗的几种颜色。视图 → 对数色标让每个数量级的权重分到同样多的颜色。&lt;/li&gt;&lt;li&gt;&lt;b&gt;矩形而不是正方形&lt;/b&gt;：这是交叉注意力。行是句子的词元（T_q 个查询），列是第二段文本的词元（T_k 个键），就像翻译模型的解码器回看源句子；每行仍然和为 1，也没有因果掩码。&lt;/li&gt;&lt;/ul&gt;&lt;h3&gt;动手试试&lt;/h3&gt;&lt;ol&gt;&lt;li&gt;把 d_model 从 16 调到 512，观察缩放前的标准差随 √d_k 增大，而缩放后的标准差保持在 1 附近。&lt;/li&gt;&lt;li&gt;把 softmax 维度设为查询（dim=-2），比较行和与列和。&lt;/li&gt;&lt;li&gt;把分头方式切换为“只用 view”，看各个头如何失去词元结构。&lt;/li&gt;&lt;/ol&gt;&lt;p&gt;把鼠标悬停在格子上，可以查看它的权重、logit（缩放和掩码之后）以及原始分数 q·k。点击一个头可以放大查看。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>About AttnScope</source>
        <translation>关于 AttnScope</translation>
    </message>
    <message>
        <source>&lt;h3&gt;AttnScope %1&lt;/h3&gt;&lt;p&gt;See softmax(QKᵀ/√d_k + M)·V for your own sentence, head by head, and change the formula to watch what each part does.&lt;/p&gt;&lt;p&gt;With the embedding “torch.randn(B, T, C)” the numbers equal PyTorch&apos;s torch.manual_seed(seed); torch.randn(…); nn.Linear(…) bit for bit.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;AttnScope %1&lt;/h3&gt;&lt;p&gt;用你自己的句子，逐个头地查看 softmax(QKᵀ/√d_k + M)·V；修改公式的各个部分，观察每一部分起什么作用。&lt;/p&gt;&lt;p&gt;嵌入选择“torch.randn(B, T, C)”时，得到的数值与 PyTorch 的 torch.manual_seed(seed); torch.randn(…); nn.Linear(…) 逐位相同。&lt;/p&gt;</translation>
    </message>
</context>
<context>
    <name>attn::ui::KnockOutBar</name>
    <message>
        <source>No head knocked out: right-click a head or a layer in the model view, or press K on one.</source>
        <translation>没有敲掉任何头：在模型视图中右键点击一个头或一层，或在头上按 K。</translation>
    </message>
    <message>
        <source>1 head knocked out: its output P·V</source>
        <translation>敲掉了 1 个头：它的输出 P·V</translation>
    </message>
    <message>
        <source>%1 heads knocked out: their outputs P·V</source>
        <translation>敲掉了 %1 个头：它们的输出 P·V</translation>
    </message>
    <message>
        <source>set to 0 (zero ablation)</source>
        <translation>置为 0（零消融）</translation>
    </message>
    <message>
        <source>replaced by their mean over the text (mean ablation)</source>
        <translation>换成它们在本文本上的平均值（均值消融）</translation>
    </message>
    <message>
        <source>What a knocked-out head&apos;s output becomes before the layer&apos;s output projection</source>
        <translation>被敲掉的头的输出在该层输出投影之前变成什么</translation>
    </message>
    <message>
        <source>Restore &amp;All</source>
        <translation>全部恢复(&amp;A)</translation>
    </message>
</context>
<context>
    <name>attn::ui::LanguageModelWindow</name>
    <message>
        <source>Not enough memory to run the model.</source>
        <translation>内存不足，无法运行模型。</translation>
    </message>
    <message>
        <source>The text has %1 tokens; the model reads at most %2.</source>
        <translation>文本有 %1 个词元；模型最多读取 %2 个。</translation>
    </message>
    <message>
        <source>no causal mask: every token sees the ones after it</source>
        <translation>没有因果掩码：每个词元都能看到其后的词元</translation>
    </message>
    <message>
        <source>in every layer</source>
        <translation>在每一层中</translation>
    </message>
    <message>
        <source>in layer %1 only</source>
        <translation>仅在层 %1 中</translation>
    </message>
    <message>
        <source>The model&apos;s textbook formula, as it was trained.</source>
        <translation>模型训练时所用的标准公式。</translation>
    </message>
    <message>
        <source>Departs from the textbook %1: %2.</source>
        <translation>%1与标准公式不同：%2。</translation>
    </message>
    <message>
        <source>; </source>
        <comment>separator between departures</comment>
        <translation>；</translation>
    </message>
    <message>
        <source>%1 — Language Model</source>
        <translation>%1 — 语言模型</translation>
    </message>
    <message>
        <source>&amp;Text:</source>
        <translation>文本(&amp;T)：</translation>
    </message>
    <message>
        <source>Type a sentence; the model predicts what comes next</source>
        <translation>输入一个句子；模型预测接下来的内容</translation>
    </message>
    <message>
        <source>Cut to %1 Tokens</source>
        <translation>截断为 %1 个词元</translation>
    </message>
    <message>
        <source>&amp;Apply the switches to:</source>
        <translation>开关作用于(&amp;A)：</translation>
    </message>
    <message>
        <source>Every layer</source>
        <translation>每一层</translation>
    </message>
    <message>
        <source>Only layer %1</source>
        <translation>仅层 %1</translation>
    </message>
    <message>
        <source>Break one layer alone: the others keep the textbook formula</source>
        <translation>只改动一层：其余各层保持标准公式</translation>
    </message>
    <message>
        <source>a causal mask: no token sees the ones after it, though the model was trained reading both ways</source>
        <translation>因果掩码：没有词元能看到其后的词元，而模型训练时是双向阅读的</translation>
    </message>
    <message>
        <source>Type a sentence with [MASK]; the model fills it in</source>
        <translation>输入一个带 [MASK] 的句子；模型来填空</translation>
    </message>
    <message>
        <source>&amp;Group into words</source>
        <translation>按词合并(&amp;G)</translation>
    </message>
    <message>
        <source>no rotary positions (RoPE): attention sees no order but the mask&apos;s</source>
        <translation>无旋转位置编码（RoPE）：除掩盖外，注意力看不出词序</translation>
    </message>
    <message>
        <source>%1 query heads, %2 K/V heads</source>
        <translation>%1 个查询头，%2 个键/值头</translation>
    </message>
    <message>
        <source>%1 heads</source>
        <translation>%1 个头</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; · %2 · %3 layers × %4 · d_model %5 · %6 tokens at most · %7 weights · %8</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; · %2 · %3 层 × %4 · d_model %5 · 最多 %6 个词元 · %7 权重 · %8</translation>
    </message>
    <message>
        <source>Rotary positions (&amp;RoPE)</source>
        <translation>旋转位置编码（&amp;RoPE）</translation>
    </message>
    <message>
        <source>Rotate each query and key by its position, as the model was trained; off, the layers&apos; attention sees no position but the causal mask&apos;s</source>
        <translation>按位置旋转每个查询和键，与模型训练时一样；关闭时，各层的注意力除因果掩盖外看不到位置</translation>
    </message>
    <message>
        <source>This model has no rotary positions: its positions are added to the embeddings</source>
        <translation>此模型没有旋转位置编码：它的位置编码加在嵌入上</translation>
    </message>
    <message>
        <source>Show attention by word (ICU&apos;s words; Chinese by its dictionary): attention to a word is the sum over its tokens, attention from a word the mean over its tokens&apos; rows, so each row still sums to 1 (Clark et al. 2019)</source>
        <translation>按词显示注意力（ICU 分词，中文按词典切分）：对一个词的注意力是其各词元之和，来自一个词的注意力是其各词元所在行的平均，因此每一行之和仍为 1（Clark 等，2019）</translation>
    </message>
    <message>
        <source>No rotary positions (RoPE): this model adds learned positions</source>
        <translation>无旋转位置编码（RoPE）：此模型加的是学习得到的位置向量</translation>
    </message>
    <message>
        <source>heads %1 knocked out (their outputs replaced by their mean)</source>
        <translation>敲掉了头 %1（其输出换成其平均值）</translation>
    </message>
    <message>
        <source>heads %1 knocked out (their outputs set to 0)</source>
        <translation>敲掉了头 %1（其输出置为 0）</translation>
    </message>
    <message>
        <source>no sliding window: every token sees all the ones before it (the model&apos;s own window is %1 keys)</source>
        <translation>没有滑动窗口：每个词元都能看到它之前的全部词元（模型自己的窗口是 %1 个键）</translation>
    </message>
</context>
<context>
    <name>attn::ui::LogitLensButton</name>
    <message>
        <source>&amp;Logit Lens…</source>
        <translation>Logit 透镜(&amp;L)…</translation>
    </message>
    <message>
        <source>Every block&apos;s residual stream read as a prediction</source>
        <translation>把每个块的残差流读成预测</translation>
    </message>
</context>
<context>
    <name>attn::ui::LogitLensDialog</name>
    <message>
        <source>Reading every block…</source>
        <translation>正在读取每个块…</translation>
    </message>
    <message>
        <source>After block %1, position %2 (“%3”):</source>
        <translation>第 %1 块之后，位置 %2（“%3”）：</translation>
    </message>
    <message>
        <source>The last row is the model&apos;s own prediction; the colour is the top token&apos;s probability (dark 0, yellow 1).</source>
        <translation>最后一行就是模型自己的预测；颜色是第一名词元的概率（深色为 0，黄色为 1）。</translation>
    </message>
    <message>
        <source>Logit Lens</source>
        <translation>Logit 透镜</translation>
    </message>
    <message>
        <source>The residual stream after each block, put through the model&apos;s final norm and output head, read as a prediction: where along the layers the answer forms. Flip a switch or knock a head out and watch it form later, or never.</source>
        <translation>每个块之后的残差流经过模型最终的归一化和输出头，读成一个预测：答案在哪一层逐渐成形。拨动一个开关或敲掉一个头，看它成形得更晚，或者永远不成形。</translation>
    </message>
    <message>
        <source>The logit lens is not read yet.</source>
        <translation>Logit 透镜还没有读出。</translation>
    </message>
    <message>
        <source>Export Logit Lens</source>
        <translation>导出Logit 透镜</translation>
    </message>
    <message>
        <source>&amp;Export…</source>
        <translation>导出(&amp;E)…</translation>
    </message>
    <message>
        <source>The table as PNG, SVG or PDF, or every block&apos;s top 5 as CSV or JSON</source>
        <translation>把表格保存为 PNG、SVG 或 PDF，或把每个块的前 5 名保存为 CSV 或 JSON</translation>
    </message>
</context>
<context>
    <name>attn::ui::MainWindow</name>
    <message>
        <source>Cannot compute: %1</source>
        <translation>无法计算：%1</translation>
    </message>
    <message>
        <source>AttnScope — attention, visible</source>
        <translation>AttnScope —— 看得见的注意力</translation>
    </message>
    <message>
        <source>computing…</source>
        <translation>计算中…</translation>
    </message>
</context>
<context>
    <name>attn::ui::ModelCompareButton</name>
    <message>
        <source>The textbook model (A) beside the switched one (B): heads, B − A and both predictions</source>
        <translation>按标准公式的模型（A）与改了开关的模型（B）并排：各头、B − A 以及两边的预测</translation>
    </message>
    <message>
        <source>Compare A/&amp;B…</source>
        <translation>对比 A/B(&amp;B)…</translation>
    </message>
</context>
<context>
    <name>attn::ui::ModelCompareDialog</name>
    <message>
        <source>Head %1</source>
        <translation>头 %1</translation>
    </message>
    <message>
        <source>Mean of the heads</source>
        <translation>各头平均</translation>
    </message>
    <message>
        <source>Cannot tell the format of %1: name it .png, .svg or .pdf.</source>
        <translation>无法判断 %1 的格式：请以 .png、.svg 或 .pdf 作为扩展名。</translation>
    </message>
    <message>
        <source>The textbook model is still being computed; export it in a moment.</source>
        <translation>标准公式的模型还在计算中，请稍后再导出。</translation>
    </message>
    <message>
        <source>Export the Comparison</source>
        <translation>导出对比结果</translation>
    </message>
    <message>
        <source>Compare A/B: the textbook model and the switched one</source>
        <translation>对比 A/B：标准公式的模型与改了开关的模型</translation>
    </message>
    <message>
        <source>&amp;Layer</source>
        <translation>层(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Head</source>
        <translation>头(&amp;H)</translation>
    </message>
    <message>
        <source>Computing the textbook model…</source>
        <translation>正在计算标准公式的模型…</translation>
    </message>
    <message>
        <source>no departure</source>
        <translation>没有偏离</translation>
    </message>
    <message>
        <source>#</source>
        <comment>rank</comment>
        <translation>名次</translation>
    </message>
    <message>
        <source>Token</source>
        <translation>词元</translation>
    </message>
    <message>
        <source>Probability</source>
        <translation>概率</translation>
    </message>
    <message>
        <source>In B</source>
        <translation>在 B 中</translation>
    </message>
    <message>
        <source>In A</source>
        <translation>在 A 中</translation>
    </message>
    <message>
        <source>&amp;Export…</source>
        <translation>导出(&amp;E)…</translation>
    </message>
    <message>
        <source>Save A, B, B − A and both predictions as PNG, SVG or PDF</source>
        <translation>把 A、B、B − A 和两边的预测保存为 PNG、SVG 或 PDF</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>Comparing the predictions…</source>
        <translation>正在比较两边的预测…</translation>
    </message>
    <message>
        <source>next tokens</source>
        <translation>下一个词元</translation>
    </message>
    <message>
        <source>fill-ins for [MASK]</source>
        <translation>[MASK] 的填空</translation>
    </message>
    <message>
        <source>&lt;b&gt;A: the textbook formula&lt;/b&gt; — %1</source>
        <translation>&lt;b&gt;A：标准公式&lt;/b&gt; — %1</translation>
    </message>
    <message>
        <source>&lt;b&gt;B: switched&lt;/b&gt; (%1) — %2</source>
        <translation>&lt;b&gt;B：改了开关&lt;/b&gt;（%1）— %2</translation>
    </message>
    <message>
        <source>The switches act in layer %1 only: layer %2 comes before it, so A and B are the same here (B − A = 0).</source>
        <translation>这些开关只作用于层 %1：层 %2 在它之前，所以这里 A 与 B 相同（B − A = 0）。</translation>
    </message>
</context>
<context>
    <name>attn::ui::ModelGrid</name>
    <message>
        <source>Layer %1, head %2</source>
        <translation>层 %1，头 %2</translation>
    </message>
    <message>
        <source>layer</source>
        <comment>a row of the model view</comment>
        <translation>层</translation>
    </message>
    <message>
        <source>%1: largest weight %2</source>
        <translation>%1：最大权重 %2</translation>
    </message>
    <message>
        <source>Model view</source>
        <translation>模型视图</translation>
    </message>
    <message>
        <source>%1: computing the thumbnails…</source>
        <translation>%1：正在计算缩略图…</translation>
    </message>
    <message>
        <source>Computing the thumbnails…</source>
        <translation>正在计算缩略图…</translation>
    </message>
    <message>
        <source>layers × heads: %1 × %2, computing the thumbnails; the arrow keys move, Enter opens a head</source>
        <translation>层 × 头：%1 × %2，正在计算缩略图；方向键移动，回车键打开一个头</translation>
    </message>
    <message numerus="yes">
        <source>(NaN or infinite weights: %n)</source>
        <translation>
            <numerusform>（NaN 或无穷大的权重：%n 个）</numerusform>
        </translation>
    </message>
    <message>
        <source>layers × heads: %1 × %2; the arrow keys move, Enter opens a head</source>
        <translation>层 × 头：%1 × %2；方向键移动，回车键打开一个头</translation>
    </message>
    <message>
        <source>shares K/V head %1 with heads %2–%3</source>
        <comment>grouped-query attention</comment>
        <translation>与头 %2–%3 共用键/值头 %1</translation>
    </message>
    <message>
        <source>head %1 · %2</source>
        <comment>a head and the K/V head it reads</comment>
        <translation>头 %1 · %2</translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <comment>a tile&apos;s name and the K/V head it reads</comment>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <source> · knocked out (K restores it)</source>
        <translation> · 已敲掉（按 K 恢复）</translation>
    </message>
    <message>
        <source> · K or right-click knocks it out</source>
        <translation> · 按 K 或右键点击可敲掉它</translation>
    </message>
    <message>
        <source>&amp;Knock Out Head %1.%2</source>
        <translation>敲掉头 %1.%2(&amp;K)</translation>
    </message>
    <message>
        <source>&amp;Restore Head %1.%2</source>
        <translation>恢复头 %1.%2(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Knock Out Layer %1&apos;s Attention</source>
        <translation>敲掉第 %1 层的注意力(&amp;K)</translation>
    </message>
    <message>
        <source>&amp;Restore Layer %1&apos;s Heads</source>
        <translation>恢复第 %1 层的头(&amp;R)</translation>
    </message>
    <message>
        <source> · %1</source>
        <comment>a tile&apos;s name and its role</comment>
        <translation> · %1</translation>
    </message>
</context>
<context>
    <name>attn::ui::ModelWindow</name>
    <message>
        <source>%1 · largest weight %2 · click or press Enter to open it</source>
        <translation>%1 · 最大权重 %2 · 单击或按回车键打开</translation>
    </message>
    <message>
        <source>Cannot tell the format of %1: name it .json, .csv, .npy, .png, .svg or .pdf.</source>
        <translation>无法判断 %1 的格式：请以 .json、.csv、.npy、.png、.svg 或 .pdf 结尾命名。</translation>
    </message>
    <message>
        <source>Export Numbers</source>
        <translation>导出数值</translation>
    </message>
    <message>
        <source>Export Figure</source>
        <translation>导出图片</translation>
    </message>
    <message>
        <source>%1 — Attention File</source>
        <translation>%1 — 注意力文件</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; · %2 · layers × sequences × heads × queries × keys = %3 × %4 × %5 × %6 × %7%8</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; · %2 · 层 × 序列 × 头 × 查询 × 键 = %3 × %4 × %5 × %6 × %7%8</translation>
    </message>
    <message>
        <source> · no tokens in the file: rows and columns are numbered</source>
        <translation> · 文件中没有词元：行和列用编号表示</translation>
    </message>
    <message>
        <source>Se&amp;quence:</source>
        <translation>序列(&amp;Q)：</translation>
    </message>
    <message>
        <source>&amp;Layer:</source>
        <translation>层(&amp;L)：</translation>
    </message>
    <message>
        <source>Layer %1</source>
        <translation>层 %1</translation>
    </message>
    <message>
        <source>&lt;b&gt;Head patterns&lt;/b&gt; — click a column to sort; previous, self and first are mean weights, entropy in bits</source>
        <translation>&lt;b&gt;头的模式&lt;/b&gt; — 单击列标题排序；“前一个”“自身”“首个”是平均权重，熵以比特为单位</translation>
    </message>
    <message>
        <source>Show Heads &amp;Like This One</source>
        <translation>显示与此相似的头(&amp;L)</translation>
    </message>
    <message>
        <source>Order the table by how alike the heads&apos; patterns are to the chosen head&apos;s</source>
        <translation>按各个头的模式与所选头的相似程度排列表格</translation>
    </message>
    <message>
        <source>&amp;Open Head</source>
        <translation>打开头(&amp;O)</translation>
    </message>
    <message>
        <source>Export &amp;Numbers…</source>
        <translation>导出数值(&amp;N)…</translation>
    </message>
    <message>
        <source>Save the chosen layer&apos;s weights as JSON (with statistics and patterns), CSV or NPY</source>
        <translation>把所选层的权重保存为 JSON（含统计和模式）、CSV 或 NPY</translation>
    </message>
    <message>
        <source>Export &amp;Figure…</source>
        <translation>导出图片(&amp;F)…</translation>
    </message>
    <message>
        <source>Save the chosen head as a PNG, SVG or PDF figure</source>
        <translation>把所选的头保存为 PNG、SVG 或 PDF 图片</translation>
    </message>
    <message>
        <source>&amp;Colormap:</source>
        <translation>色图(&amp;C)：</translation>
    </message>
    <message>
        <source>&lt;b&gt;Head patterns&lt;/b&gt; — computing, every weight of the sequence is read…</source>
        <translation>&lt;b&gt;头的模式&lt;/b&gt; — 正在计算，需要读取该序列的每个权重…</translation>
    </message>
    <message>
        <source>%1 · click or press Enter to open it</source>
        <translation>%1 · 单击或按回车键打开</translation>
    </message>
    <message>
        <source>Open Layer &amp;Mean</source>
        <translation>打开该层各头平均(&amp;M)</translation>
    </message>
    <message>
        <source>Open the mean of the chosen layer&apos;s heads in the head view</source>
        <translation>在头视图中打开所选层各头的平均</translation>
    </message>
</context>
<context>
    <name>attn::ui::OpenModelDialog</name>
    <message>
        <source>Model Folder</source>
        <translation>模型文件夹</translation>
    </message>
    <message>
        <source>Open Model</source>
        <translation>打开模型</translation>
    </message>
    <message>
        <source>None in %1</source>
        <translation>%1 中没有模型</translation>
    </message>
    <message>
        <source>(no cache)</source>
        <translation>（没有缓存）</translation>
    </message>
    <message>
        <source>To get GPT-2 (about 550 MB), run in a terminal:&lt;br/&gt;&lt;tt&gt;huggingface-cli download gpt2 config.json model.safetensors vocab.json merges.txt --local-dir ~/models/gpt2&lt;/tt&gt;&lt;br/&gt;then choose that folder; without &lt;tt&gt;--local-dir&lt;/tt&gt; it goes to the cache and appears in the list above.</source>
        <translation>获取 GPT-2（约 550 MB），请在终端中运行：&lt;br/&gt;&lt;tt&gt;huggingface-cli download gpt2 config.json model.safetensors vocab.json merges.txt --local-dir ~/models/gpt2&lt;/tt&gt;&lt;br/&gt;然后选择该文件夹；不加 &lt;tt&gt;--local-dir&lt;/tt&gt; 时文件存入缓存，并出现在上面的列表中。</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <comment>a model family and the files of its folder</comment>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>Model File</source>
        <translation>模型文件</translation>
    </message>
    <message>
        <source>GGUF models (*.gguf);;All files (*)</source>
        <translation>GGUF 模型 (*.gguf);;所有文件 (*)</translation>
    </message>
    <message>
        <source>A model folder as the Hugging Face hub keeps it: config.json and the files of its family —&lt;ul&gt;%1&lt;/ul&gt;or a GGUF file. AttnScope runs the model itself and downloads nothing.</source>
        <translation>Hugging Face hub 保存的模型文件夹：config.json 加上该模型家族的文件——&lt;ul&gt;%1&lt;/ul&gt;或者一个 GGUF 文件。AttnScope 自己运行模型，不下载任何东西。</translation>
    </message>
    <message>
        <source>Models already on this &amp;computer:</source>
        <translation>这台电脑上已有的模型(&amp;C)：</translation>
    </message>
    <message>
        <source>its file is missing</source>
        <comment>an Ollama model whose blob was deleted</comment>
        <translation>它的文件不见了</translation>
    </message>
    <message>
        <source>&amp;Folder or file:</source>
        <translation>文件夹或文件(&amp;F)：</translation>
    </message>
    <message>
        <source>&amp;Browse Folder…</source>
        <translation>浏览文件夹(&amp;B)…</translation>
    </message>
    <message>
        <source>Choose Fi&amp;le…</source>
        <comment>a GGUF model file</comment>
        <translation>选择文件(&amp;L)…</translation>
    </message>
    <message>
        <source>The list shows the models these tools downloaded, from the folders where they keep them:&lt;br/&gt;%1</source>
        <translation>列表显示这些工具下载的模型，取自它们存放模型的文件夹：&lt;br/&gt;%1</translation>
    </message>
</context>
<context>
    <name>attn::ui::OpeningIndicator</name>
    <message>
        <source>Opening %1…</source>
        <comment>a language model&apos;s name</comment>
        <translation>正在打开 %1…</translation>
    </message>
    <message numerus="yes">
        <source>(%n more waiting)</source>
        <comment>models to open after this one</comment>
        <translation>
            <numerusform>（另有 %n 个等待中）</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>attn::ui::PipelineDialog</name>
    <message>
        <source>softmax over the keys (dim=-1): row %1 of L</source>
        <translation>softmax 沿键（dim=-1）：L 的行索引 %1</translation>
    </message>
    <message>
        <source>softmax over the queries (dim=-2): column %1 of L</source>
        <translation>softmax 沿查询（dim=-2）：L 的列索引 %1</translation>
    </message>
    <message>
        <source>softmax over the batch (dim=0): L[·][%1][%2][%3], one value from each of the %4 sequences</source>
        <translation>softmax 沿批次（dim=0）：L[·][%1][%2][%3]，从 %4 条序列中各取一个值</translation>
    </message>
    <message>
        <source> + … (%1 terms in all)</source>
        <comment>the dot product&apos;s terms</comment>
        <translation> + …（共 %1 项）</translation>
    </message>
    <message>
        <source>① Score</source>
        <translation>① 分数</translation>
    </message>
    <message>
        <source>② Logit</source>
        <translation>② logit</translation>
    </message>
    <message>
        <source>The mask hides key %1 from query %2, so it is filled: %3 = &lt;b&gt;%4&lt;/b&gt;</source>
        <translation>掩码对查询 %2 遮住了键 %1，所以填入：%3 = &lt;b&gt;%4&lt;/b&gt;</translation>
    </message>
    <message>
        <source>The mask hides key %1 from query %2, but only after the softmax (the bug): the logit goes in as it is.</source>
        <translation>掩码对查询 %2 遮住了键 %1，但要到 softmax 之后才生效（错误）：logit 原样进入 softmax。</translation>
    </message>
    <message>
        <source> + … (%1 terms in all)</source>
        <comment>the softmax&apos;s terms</comment>
        <translation> + …（共 %1 项）</translation>
    </message>
    <message>
        <source>③ Weight</source>
        <translation>③ 权重</translation>
    </message>
    <message>
        <source>max = %1, subtracted only so that exp cannot overflow</source>
        <translation>max = %1，减去它只是为了让 exp 不溢出</translation>
    </message>
    <message>
        <source> (grey: masked, exp(%1 − max) = 0)</source>
        <translation>（灰色：已掩盖，exp(%1 − max) = 0）</translation>
    </message>
    <message>
        <source>Every logit of %1 is -inf: max = -inf and -inf − (-inf) = NaN, so the weight is NaN, as in torch.</source>
        <translation>%1 的所有 logit 都是 -inf：max = -inf，而 -inf − (-inf) = NaN，所以权重是 NaN，与 torch 中一样。</translation>
    </message>
    <message>
        <source>Then the mask, after the softmax (the bug): %1 = &lt;b&gt;%2&lt;/b&gt;, so what is left no longer sums to 1.</source>
        <translation>然后在 softmax 之后才施加掩码（错误）：%1 = &lt;b&gt;%2&lt;/b&gt;，剩下的权重加起来不再为 1。</translation>
    </message>
    <message>
        <source>Sequence %1, head %2: how query &lt;b&gt;%3&lt;/b&gt; (row %4) weighs key &lt;b&gt;%5&lt;/b&gt; (column %6).</source>
        <translation>序列 %1，头 %2：查询 &lt;b&gt;%3&lt;/b&gt;（行索引 %4）给键 &lt;b&gt;%5&lt;/b&gt;（列索引 %6）多少权重。</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <comment>sequence number: its tokens</comment>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>Head %1</source>
        <comment>head chooser</comment>
        <translation>头 %1</translation>
    </message>
    <message>
        <source>Nothing computed yet.</source>
        <translation>还没有计算结果。</translation>
    </message>
    <message>
        <source>Step by Step</source>
        <translation>逐步计算</translation>
    </message>
    <message>
        <source>&amp;Sequence:</source>
        <translation>序列(&amp;S)：</translation>
    </message>
    <message>
        <source>&amp;Head:</source>
        <translation>头(&amp;H)：</translation>
    </message>
    <message>
        <source>Each step&apos;s matrix, for one sequence and one head. Click a cell of S, L or P (the framed steps) to see its arithmetic below.</source>
        <translation>每一步的矩阵，针对一条序列和一个头。点击 S、L 或 P（带边框的步骤）中的格子，下方会显示它的计算过程。</translation>
    </message>
    <message>
        <source>Export the Steps</source>
        <translation>导出计算步骤</translation>
    </message>
    <message>
        <source>&amp;Export…</source>
        <translation>导出(&amp;E)…</translation>
    </message>
    <message>
        <source>Save the steps as they are laid out here as PNG, SVG or PDF, for a handout</source>
        <translation>按这里的排布把各步保存为 PNG、SVG 或 PDF，用作讲义</translation>
    </message>
    <message>
        <source>After ALiBi&apos;s bias and the soft-cap: %1 = &lt;b&gt;%2&lt;/b&gt;</source>
        <translation>加上 ALiBi 的偏置并软截断之后：%1 = &lt;b&gt;%2&lt;/b&gt;</translation>
    </message>
    <message>
        <source> (the last term is the sink&apos;s, exp(s − max) with s = %1: the weight it takes is dropped)</source>
        <translation>（最后一项属于汇聚点，exp(s − max)，其中 s = %1：它拿走的权重被丢弃）</translation>
    </message>
    <message>
        <source>Head %1 · K/V %2</source>
        <comment>head chooser: query head, its K/V head</comment>
        <translation>头 %1 · 键/值 %2</translation>
    </message>
</context>
<context>
    <name>attn::ui::PipelineStrip</name>
    <message>
        <source>%1. %2</source>
        <comment>step number, then the step&apos;s title</comment>
        <translation>%1. %2</translation>
    </message>
    <message>
        <source>× 1 (no scaling)</source>
        <translation>× 1（不缩放）</translation>
    </message>
    <message>
        <source>× %1 = 1/√%2 (√C instead of √d_k)</source>
        <translation>× %1 = 1/√%2（√C 而不是 √d_k）</translation>
    </message>
    <message>
        <source>%1, then / τ = %2</source>
        <comment>the scale factor, then the temperature</comment>
        <translation>%1，再 / τ = %2</translation>
    </message>
    <message>
        <source>M = triu(ones(T, T), 1): key j &gt; query i is hidden</source>
        <translation>M = triu(ones(T, T), 1)：键 j &gt; 查询 i 时被遮住</translation>
    </message>
    <message>
        <source>the &lt;pad&gt; keys are hidden</source>
        <translation>&lt;pad&gt; 键被遮住</translation>
    </message>
    <message>
        <source>Q_h — queries</source>
        <translation>Q_h —— 查询</translation>
    </message>
    <message>
        <source>K_h — keys</source>
        <translation>K_h —— 键</translation>
    </message>
    <message>
        <source>V_h — values</source>
        <translation>V_h —— 值</translation>
    </message>
    <message>
        <source>drawn: [%1, %2] → (T, d_k) = (%3, %4), features %5–%6 of %7</source>
        <translation>图中为 [%1, %2] → (T, d_k) = (%3, %4)，即 %7 的第 %5–%6 个特征</translation>
    </message>
    <message>
        <source>drawn: [%1, %2] → (T, d_k) = (%3, %4); each row is a piece of one token, as its label shows</source>
        <translation>图中为 [%1, %2] → (T, d_k) = (%3, %4)；每一行是某个词元的一段，见行标签</translation>
    </message>
    <message>
        <source>↓ token   → feature of the head</source>
        <translation>↓ 词元   → 该头的特征</translation>
    </message>
    <message>
        <source>↓ query i   → key j</source>
        <translation>↓ 查询 i   → 键 j</translation>
    </message>
    <message>
        <source>drawn: [%1, %2] → (T, T) = (%3, %3)</source>
        <translation>图中为 [%1, %2] → (T, T) = (%3, %3)</translation>
    </message>
    <message>
        <source>S — scores</source>
        <translation>S —— 分数</translation>
    </message>
    <message>
        <source>; std(S) = %1 over the whole tensor</source>
        <translation>；整个张量的 std(S) = %1</translation>
    </message>
    <message>
        <source>L — scaled</source>
        <translation>L —— 缩放后</translation>
    </message>
    <message>
        <source>; std(L) = %1 over the whole tensor</source>
        <translation>；整个张量的 std(L) = %1</translation>
    </message>
    <message>
        <source>L + M — the mask comes later</source>
        <translation>L + M —— 掩码稍后才施加</translation>
    </message>
    <message>
        <source>mask after the softmax (bug): the softmax gets L unmasked</source>
        <translation>softmax 之后才施加掩码（错误）：softmax 拿到的是未加掩码的 L</translation>
    </message>
    <message>
        <source>L + M — the mask</source>
        <translation>L + M —— 掩码</translation>
    </message>
    <message>
        <source>%1; %2 of %3 cells hidden (hatched)</source>
        <translation>%1；%3 个格子中有 %2 个被遮住（斜纹）</translation>
    </message>
    <message>
        <source>L + M — no mask</source>
        <translation>L + M —— 无掩码</translation>
    </message>
    <message>
        <source>no mask: the softmax gets L as it is</source>
        <translation>无掩码：softmax 直接拿到 L</translation>
    </message>
    <message>
        <source>every key is visible to every query</source>
        <translation>每个查询都能看到所有键</translation>
    </message>
    <message>
        <source>P — attention weights</source>
        <translation>P —— 注意力权重</translation>
    </message>
    <message>
        <source>each row sums to 1</source>
        <translation>每行之和为 1</translation>
    </message>
    <message>
        <source>each column sums to 1, the rows do not</source>
        <translation>每列之和为 1，行和却不是</translation>
    </message>
    <message>
        <source>each [h][i][j] sums to 1 over the %1 sequences</source>
        <translation>每个 [h][i][j] 在 %1 条序列上求和为 1</translation>
    </message>
    <message>
        <source>; then masked to 0, so the rows no longer sum to 1</source>
        <translation>；然后被掩码置 0，所以行和不再为 1</translation>
    </message>
    <message>
        <source>; row sums %1 … %2</source>
        <translation>；行和 %1 … %2</translation>
    </message>
    <message>
        <source>X — the tokens&apos; vectors</source>
        <translation>X —— 词元向量</translation>
    </message>
    <message>
        <source>X = E[token]</source>
        <comment>E: the embedding table</comment>
        <translation>X = E[词元]</translation>
    </message>
    <message>
        <source>drawn: [%1] → (T, C) = (%2, %3)</source>
        <translation>图中为 [%1] → (T, C) = (%2, %3)</translation>
    </message>
    <message>
        <source>↓ token t   → feature c</source>
        <translation>↓ 词元 t   → 特征 c</translation>
    </message>
    <message>
        <source>O_h — head output</source>
        <translation>O_h —— 头的输出</translation>
    </message>
    <message>
        <source>drawn: [%1, %2] → (T, d_k) = (%3, %4)</source>
        <translation>图中为 [%1, %2] → (T, d_k) = (%3, %4)</translation>
    </message>
    <message>
        <source>↓ query i   → feature of the head</source>
        <translation>↓ 查询 i   → 该头的特征</translation>
    </message>
    <message>
        <source>concat — every head</source>
        <translation>concat —— 所有头</translation>
    </message>
    <message>
        <source>drawn: [%1]; one head, so concat = O_h</source>
        <translation>图中为 [%1]；只有一个头，所以 concat = O_h</translation>
    </message>
    <message>
        <source>drawn: [%1]; head %2 fills features %3–%4 (outlined)</source>
        <translation>图中为 [%1]；头 %2 占据第 %3–%4 个特征（带边框）</translation>
    </message>
    <message>
        <source>output — through W_o</source>
        <translation>输出 —— 经过 W_o</translation>
    </message>
    <message>
        <source>drawn: [%1]; the same shape as X, so layers can be stacked</source>
        <translation>图中为 [%1]；与 X 形状相同，所以可以堆叠多层</translation>
    </message>
    <message>
        <source>; drawn on S&apos;s colour scale</source>
        <translation>；与 S 使用同一色标</translation>
    </message>
    <message>
        <source> → .view(B, H, %1, d_k) (bug)</source>
        <translation> → .view(B, H, %1, d_k)（错误）</translation>
    </message>
    <message>
        <source>drawn: [%1, %2] → (T_q, T_k) = (%3, %4)</source>
        <translation>图中为 [%1, %2] → (T_q, T_k) = (%3, %4)</translation>
    </message>
    <message>
        <source>; K and V come from Y, the second text&apos;s vectors (B, T_k, C) = (%1, %2, %3)</source>
        <translation>；K 和 V 来自 Y，即第二段文本的向量 (B, T_k, C) = (%1, %2, %3)</translation>
    </message>
    <message>
        <source>the sliding window: keys with |i − j| ≥ %1 are hidden</source>
        <translation>滑动窗口：|i − j| ≥ %1 的键被遮住</translation>
    </message>
    <message>
        <source> (K/V head %1)</source>
        <translation>（键/值头 %1）</translation>
    </message>
    <message>
        <source>; K/V head %1 of %2, shared by query heads %3–%4 (repeat_kv)</source>
        <translation>；键/值头 %1（共 %2 个），由查询头 %3–%4 共用（repeat_kv）</translation>
    </message>
    <message>
        <source>L + M_W — the sliding window</source>
        <translation>L + M_W —— 滑动窗口</translation>
    </message>
    <message>
        <source>each row sums to 1 minus what the sink took</source>
        <translation>每行之和为 1 减去汇聚点拿走的部分</translation>
    </message>
    <message>
        <source>K̂_h — keys, QK-norm</source>
        <translation>K̂_h —— 键，QK-norm</translation>
    </message>
    <message>
        <source>Q̂_h — queries, QK-norm</source>
        <translation>Q̂_h —— 查询，QK-norm</translation>
    </message>
    <message>
        <source>every row divided by its RMS over the d_k features, ε = 1e-6: each row&apos;s RMS is now 1</source>
        <translation>每一行除以它在 d_k 个特征上的 RMS，ε = 1e-6：现在每行的 RMS 都是 1</translation>
    </message>
    <message>
        <source>K_h rotated — RoPE</source>
        <translation>K_h 旋转后 —— RoPE</translation>
    </message>
    <message>
        <source>Q_h rotated — RoPE</source>
        <translation>Q_h 旋转后 —— RoPE</translation>
    </message>
    <message>
        <source>row %1 turned by its position %1, pairs of features at θ^(−2k/d_k), θ = %2: q_i·k_j then depends on i − j</source>
        <translation>第 %1 行按其位置 %1 旋转，各对特征的频率为 θ^(−2k/d_k)，θ = %2：于是 q_i·k_j 取决于 i − j</translation>
    </message>
    <message>
        <source>; K/V head %1</source>
        <translation>；键/值头 %1</translation>
    </message>
    <message>
        <source>; before QK-norm and RoPE</source>
        <translation>；在 QK-norm 和 RoPE 之前</translation>
    </message>
    <message>
        <source>ALiBi — the bias of head %1</source>
        <translation>ALiBi —— 头 %1 的偏置</translation>
    </message>
    <message>
        <source>%1; slopes 2^(−8(h+1)/H) for H = %2 heads: each head sees its own distance</source>
        <translation>%1；斜率 2^(−8(h+1)/H)，H = %2 个头：每个头各有自己的视距</translation>
    </message>
    <message>
        <source>L — soft-capped</source>
        <translation>L —— 软截断后</translation>
    </message>
    <message>
        <source>L — with ALiBi&apos;s bias</source>
        <translation>L —— 加上 ALiBi 的偏置</translation>
    </message>
    <message>
        <source>before: %1; after: %2</source>
        <extracomment>%1 the range of L before, %2 after</extracomment>
        <translation>之前：%1；之后：%2</translation>
    </message>
    <message>
        <source>; every logit now inside (−c, c)</source>
        <translation>；现在每个 logit 都在 (−c, c) 之内</translation>
    </message>
    <message>
        <source>; std = %1 over the whole tensor</source>
        <translation>；整个张量的 std = %1</translation>
    </message>
    <message>
        <source>sink — the weight it took</source>
        <translation>汇聚点 —— 它拿走的权重</translation>
    </message>
    <message>
        <source>the share of row i that went to nothing: P&apos;s row sums to 1 − p_sink; largest %1</source>
        <translation>第 i 行交给“无”的份额：P 的行和为 1 − p_sink；最大 %1</translation>
    </message>
    <message>
        <source>↓ query i</source>
        <translation>↓ 查询 i</translation>
    </message>
    <message>
        <source>sink</source>
        <comment>the attention sink&apos;s column</comment>
        <translation>汇聚点</translation>
    </message>
</context>
<context>
    <name>attn::ui::PipelineTile</name>
    <message>
        <source>NaN</source>
        <comment>not a number</comment>
        <translation>NaN</translation>
    </message>
    <message>
        <source>query %1 (row %2) → key %3 (column %4)</source>
        <translation>查询 %1（行索引 %2）→ 键 %3（列索引 %4）</translation>
    </message>
    <message>
        <source>%1 (row %2), feature %3</source>
        <translation>%1（行索引 %2），特征 %3</translation>
    </message>
    <message>
        <source> (masked)</source>
        <translation>（已掩盖）</translation>
    </message>
    <message>
        <source>Click to see the arithmetic of this cell.</source>
        <translation>点击查看这个格子的计算过程。</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <comment>a cell of a step&apos;s matrix: where it is, its value</comment>
        <translation>%1：%2</translation>
    </message>
</context>
<context>
    <name>attn::ui::PredictionPanel</name>
    <message>
        <source>&lt;b&gt;Next token&lt;/b&gt;</source>
        <translation>&lt;b&gt;下一个词元&lt;/b&gt;</translation>
    </message>
    <message>
        <source>&lt;b&gt;Next token&lt;/b&gt; after %1, the text&apos;s last (position %2): the model&apos;s continuation</source>
        <translation>&lt;b&gt;下一个词元&lt;/b&gt;：在文本最后的 %1（位置 %2）之后，即模型的续写</translation>
    </message>
    <message>
        <source>&lt;b&gt;Next token&lt;/b&gt; after %1 at position %2, the query row pointed at: what the model predicts there</source>
        <translation>&lt;b&gt;下一个词元&lt;/b&gt;：在位置 %2 的 %1 之后（鼠标所指的查询行），即模型在该处的预测</translation>
    </message>
    <message>
        <source>&lt;span style=&apos;color:%1&apos;&gt;The probabilities are not numbers (NaN): a row of the softmax had no finite score (0/0), and the NaN spread through every later layer.&lt;/span&gt;</source>
        <translation>&lt;span style=&apos;color:%1&apos;&gt;这些概率不是数（NaN）：softmax 的某一行没有有限的分数（0/0），NaN 传播到了之后的每一层。&lt;/span&gt;</translation>
    </message>
    <message>
        <source>Most probable next tokens</source>
        <translation>最可能的下一个词元</translation>
    </message>
    <message>
        <source>Type [MASK] in the sentence to see what BERT would fill in</source>
        <translation>在句子里输入 [MASK]，看看 BERT 会填什么</translation>
    </message>
    <message>
        <source>[MASK] at %1</source>
        <translation>位置 %1 的 [MASK]</translation>
    </message>
    <message>
        <source>&lt;b&gt;Fill-ins&lt;/b&gt;</source>
        <translation>&lt;b&gt;填空&lt;/b&gt;</translation>
    </message>
    <message>
        <source>&lt;b&gt;Fill-ins&lt;/b&gt; for the [MASK] at position %1: the masked-LM head&apos;s most probable tokens there</source>
        <translation>&lt;b&gt;填空&lt;/b&gt;：位置 %1 的 [MASK]，即掩码语言模型头在该处最可能的词元</translation>
    </message>
    <message>
        <source>&lt;b&gt;Fill-ins&lt;/b&gt; at %1, position %2, the query row pointed at: what the masked-LM head would put there</source>
        <translation>&lt;b&gt;填空&lt;/b&gt;：位置 %2 的 %1（鼠标所指的查询行），即掩码语言模型头会在该处填入的词元</translation>
    </message>
    <message>
        <source>Most probable fill-ins</source>
        <translation>最可能的填空</translation>
    </message>
    <message>
        <source>This GGUF file has no masked-language-model head: attention only</source>
        <translation>这个 GGUF 文件没有掩码语言模型头：只显示注意力</translation>
    </message>
</context>
<context>
    <name>attn::ui::PresetPanel</name>
    <message>
        <source>The tutorial&apos;s program (article)</source>
        <translation>教程中的程序（article）</translation>
    </message>
    <message>
        <source>torch.manual_seed(42), x = torch.randn(2, 4, 16), one head, so d_k = C = 16. The words are only labels here: in embedding mode “torch” the vectors come from torch.randn, not from the words.</source>
        <translation>torch.manual_seed(42)，x = torch.randn(2, 4, 16)，一个头，所以 d_k = C = 16。这里的词只是标签：嵌入方式为“torch”时，向量来自 torch.randn，而不是来自词本身。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Std before scaling 1.1888, after 0.2972&lt;/b&gt;: exactly 1/√d_k = 1/√16 = 1/4 of it (PyTorch prints 1.19 and 0.30). Scaling keeps the dot products&apos; spread in check.</source>
        <translation>&lt;b&gt;缩放前标准差 1.1888，缩放后 0.2972&lt;/b&gt;：恰好缩小到 1/√d_k = 1/√16 = 1/4（PyTorch 打印为 1.19 和 0.30）。缩放项给点积的方差装了“闸门”。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Every row sums to 1.0000&lt;/b&gt;: each query hands out exactly one unit of attention; only the shares differ. Columns need not sum to 1 (here 0.8602 to 1.1298).</source>
        <translation>&lt;b&gt;每行权重之和都是 1.0000&lt;/b&gt;：每个查询的“注意力总量”守恒，只是分配比例不同。列和不必为 1（这里在 0.8602 到 1.1298 之间）。</translation>
    </message>
    <message>
        <source>&lt;b&gt;The output has the shape (2, 4, 16)&lt;/b&gt;, the same (B, T, C) as x: attention does not change the shape, which is what lets layers be stacked.</source>
        <translation>&lt;b&gt;输出形状为 (2, 4, 16)&lt;/b&gt;，与 x 的 (B, T, C) 相同：注意力不改变形状，这正是它能被堆叠成深层网络的前提。</translation>
    </message>
    <message>
        <source>Exercise 1: set d_model to 512 and scaling to none. The std grows to 8.2085 and 63% of the rows saturate to one-hot.</source>
        <translation>练习 1：把 d_model 设为 512，缩放设为“不缩放”。标准差增大到 8.2085，63% 的行饱和成 one-hot。</translation>
    </message>
    <message>
        <source>d_model 512 without √d_k (saturation)</source>
        <translation>d_model 512 且不除以 √d_k（saturation）</translation>
    </message>
    <message>
        <source>d_model = 512 with one head, so d_k = 512, and the logits are not divided by √d_k: the tutorial&apos;s first common mistake.</source>
        <translation>d_model = 512，一个头，所以 d_k = 512，而且 logit 没有除以 √d_k：教程中“常见错误”的第一条。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Std before and after scaling are both 10.6405&lt;/b&gt;: nothing shrinks the dot products, whose spread grows like √d_k.</source>
        <translation>&lt;b&gt;缩放前后的标准差都是 10.6405&lt;/b&gt;：没有任何东西缩小点积，而点积的离散程度随 √d_k 增长。</translation>
    </message>
    <message>
        <source>&lt;b&gt;27% of the rows are saturated&lt;/b&gt; (3 of 11 have a largest weight ≥ 0.99) and the mean largest weight is 0.80: the warning says to turn scaling on.</source>
        <translation>&lt;b&gt;27% 的行已饱和&lt;/b&gt;（11 行中有 3 行最大权重 ≥ 0.99），平均最大权重为 0.80：警告会提示你打开缩放。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Entropy 0.72 of at most 3.46 bits&lt;/b&gt;: most rows look at one or two keys. A one-hot softmax passes almost no gradient back, so the loss stops falling.</source>
        <translation>&lt;b&gt;熵为 0.72 比特（最大 3.46）&lt;/b&gt;：大多数行只看一两个键。one-hot 的 softmax 几乎传不回梯度，所以 loss 降不动。</translation>
    </message>
    <message>
        <source>Set scaling to ÷ √d_k: the std after scaling drops to 0.4702 (10.6405/√512), no row is saturated and the entropy rises to 3.33 bits.</source>
        <translation>把缩放设为 ÷ √d_k：缩放后标准差降到 0.4702（10.6405/√512），没有行饱和，熵升到 3.33 比特。</translation>
    </message>
    <message>
        <source>Softmax over the queries, dim=-2 (wrong-axis-queries)</source>
        <translation>softmax 沿查询归一化，dim=-2（wrong-axis-queries）</translation>
    </message>
    <message>
        <source>The softmax normalises each column (one key, over all queries) instead of each row (one query, over all keys): the tutorial&apos;s second common mistake and exercise 2.</source>
        <translation>softmax 对每一列（一个键，跨所有查询）归一化，而不是对每一行（一个查询，跨所有键）：这是教程中的第二个常见错误，也是练习 2。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Every column sums to 1.0000&lt;/b&gt;; &lt;b&gt;the rows do not&lt;/b&gt;: they range from 0.3557 to 1.6504.</source>
        <translation>&lt;b&gt;每列之和都是 1.0000&lt;/b&gt;；&lt;b&gt;行和却不是&lt;/b&gt;：在 0.3557 到 1.6504 之间。</translation>
    </message>
    <message>
        <source>A row is no longer a distribution over the keys, so a query&apos;s output is no longer a weighted average of the values.</source>
        <translation>一行不再是对所有键的概率分布，所以查询的输出也不再是值的加权平均。</translation>
    </message>
    <message>
        <source>The heatmaps look plausible; the row sums in the statistics and the warning give the mistake away.</source>
        <translation>热力图看起来还算正常；是统计中的行和以及警告暴露了这个错误。</translation>
    </message>
    <message>
        <source>Set the axis to keys (dim=-1): every row sums to 1 again.</source>
        <translation>把 softmax 维度设为键（dim=-1）：每行之和又变回 1。</translation>
    </message>
    <message>
        <source>Softmax over the batch, dim=0 (wrong-axis-batch)</source>
        <translation>softmax 沿批次归一化，dim=0（wrong-axis-batch）</translation>
    </message>
    <message>
        <source>Two sentences of 7 tokens, and the softmax runs over dim=0: each weight is normalised across the sentences of the batch instead of across the keys.</source>
        <translation>两个句子，各 7 个词元，softmax 沿 dim=0 做：每个权重是在批次的各个句子之间归一化，而不是在所有键之间。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Cell (i, j) of sentence 0 plus cell (i, j) of sentence 1 is exactly 1&lt;/b&gt;. Switch between the sentences in the toolbar to compare them.</source>
        <translation>&lt;b&gt;句子 0 的格子 (i, j) 加上句子 1 的格子 (i, j) 恰好等于 1&lt;/b&gt;。在工具栏中切换句子即可对比。</translation>
    </message>
    <message>
        <source>&lt;b&gt;So the rows sum to 2.0587 … 4.9413&lt;/b&gt;, and row i of both sentences together sums to T = 7.</source>
        <translation>&lt;b&gt;因此行和在 2.0587 … 4.9413 之间&lt;/b&gt;，两个句子的第 i 行合起来的和为 T = 7。</translation>
    </message>
    <message>
        <source>One sentence&apos;s weights depend on the other sentence: the model would answer differently depending on what else is in the batch.</source>
        <translation>一个句子的权重取决于另一个句子：同一批次里还放了什么，模型的回答就会不同。</translation>
    </message>
    <message>
        <source>Set the axis to keys (dim=-1): each sentence&apos;s rows sum to 1 on their own.</source>
        <translation>把 softmax 维度设为键（dim=-1）：每个句子的每一行各自求和为 1。</translation>
    </message>
    <message>
        <source>A decoder&apos;s causal mask (causal-decoder)</source>
        <translation>解码器的因果掩码（causal-decoder）</translation>
    </message>
    <message>
        <source>Query i may look only at keys j ≤ i: the logits above the diagonal (torch.triu(ones(T, T), 1)) are filled with -inf before the softmax, as in GPT.</source>
        <translation>查询 i 只能看键 j ≤ i：对角线上方的 logit（torch.triu(ones(T, T), 1)）在 softmax 之前填成 -inf，与 GPT 相同。</translation>
    </message>
    <message>
        <source>&lt;b&gt;The upper triangle is exactly 0&lt;/b&gt; (hatched cells): no token sees a later one.</source>
        <translation>&lt;b&gt;上三角恰好为 0&lt;/b&gt;（斜纹格子）：没有词元能看到它后面的词元。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Row 0 is [1, 0, 0, …]&lt;/b&gt;: the first token can only look at itself. Row i spreads over i + 1 keys.</source>
        <translation>&lt;b&gt;第 0 行是 [1, 0, 0, …]&lt;/b&gt;：第一个词元只能看自己。第 i 行分布在 i + 1 个键上。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Every row still sums to 1.0000&lt;/b&gt;: masking before the softmax hands the hidden keys&apos; share to the visible ones.</source>
        <translation>&lt;b&gt;每行之和仍为 1.0000&lt;/b&gt;：在 softmax 之前施加掩码，被遮住的键的份额会转给可见的键。</translation>
    </message>
    <message>
        <source>Compare with mask-after-softmax, where the same mask comes one step too late.</source>
        <translation>对比 mask-after-softmax：同样的掩码在那里晚了一步。</translation>
    </message>
    <message>
        <source>Heads split with view only (head-split-bug)</source>
        <translation>只用 view 拆分头（head-split-bug）</translation>
    </message>
    <message>
        <source>Q, K and V are cut into heads with view(B, H, T, d_k) instead of view(B, T, H, d_k).transpose(1, 2): the tutorial&apos;s third common mistake, “don&apos;t squeeze it with view”.</source>
        <translation>Q、K、V 用 view(B, H, T, d_k) 而不是 view(B, T, H, d_k).transpose(1, 2) 拆分成头：这是教程中的第三个常见错误——“别用 view 硬捏”。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Row i of head h is no longer token i&lt;/b&gt;: it is 16 of the 64 features of token ⌊(11h + i)/4⌋. Rows 0–3 of head 0 all come from “The”.</source>
        <translation>&lt;b&gt;头 h 的第 i 行不再是词元 i&lt;/b&gt;：而是词元 ⌊(11h + i)/4⌋ 的 64 个特征中的 16 个。头 0 的第 0–3 行都来自“The”。</translation>
    </message>
    <message>
        <source>&lt;b&gt;The shapes are the same&lt;/b&gt;, (1, 4, 11, 16), so PyTorch raises no error.</source>
        <translation>&lt;b&gt;形状完全相同&lt;/b&gt;，都是 (1, 4, 11, 16)，所以 PyTorch 不会报错。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Every row still sums to 1.0000&lt;/b&gt;: the sums cannot see this bug. Only the warning and the pictures show it.</source>
        <translation>&lt;b&gt;每行之和仍为 1.0000&lt;/b&gt;：行和发现不了这个错误，只有警告和热力图能暴露它。</translation>
    </message>
    <message>
        <source>Set the head split to view + transpose: the heatmaps change although no number you chose did.</source>
        <translation>把分头方式设为 view + transpose：你设定的数值一个都没变，热力图却变了。</translation>
    </message>
    <message>
        <source>Mask after the softmax (mask-after-softmax)</source>
        <translation>softmax 之后才施加掩码（mask-after-softmax）</translation>
    </message>
    <message>
        <source>The causal mask is applied to the weights after the softmax, P.masked_fill(M, 0), instead of to the logits before it.</source>
        <translation>因果掩码在 softmax 之后作用于权重（P.masked_fill(M, 0)），而不是在 softmax 之前作用于 logit。</translation>
    </message>
    <message>
        <source>&lt;b&gt;The rows no longer sum to 1&lt;/b&gt;: row 0 keeps only its own weight (0.0992 to 0.1313, by head); only the last row, which sees every key, still sums to 1.0000.</source>
        <translation>&lt;b&gt;行和不再为 1&lt;/b&gt;：第 0 行只保留了它自己的权重（因头而异，在 0.0992 到 0.1313 之间）；只有能看到所有键的最后一行之和仍为 1.0000。</translation>
    </message>
    <message>
        <source>The upper triangle is 0 here too, so the heatmap looks almost right: the row sums give it away.</source>
        <translation>这里上三角同样是 0，热力图看起来几乎没问题：是行和暴露了错误。</translation>
    </message>
    <message>
        <source>The share the future keys had is simply thrown away: early tokens get a shrunken average of the values.</source>
        <translation>未来的键原本分到的份额被直接丢掉了：靠前的词元得到的是值的“缩水”平均。</translation>
    </message>
    <message>
        <source>Set the mask stage to before the softmax: this is the causal-decoder preset, where every row sums to 1.</source>
        <translation>把掩码时机设为 softmax 之前：这就是 causal-decoder 预设，每行之和都为 1。</translation>
    </message>
    <message>
        <source>A fully masked slice: -inf against -1e9 (fully-masked-row)</source>
        <translation>整片被掩盖：-inf 对比 -1e9（fully-masked-row）</translation>
    </message>
    <message>
        <source>“The cat slept .” is padded to 7 tokens: its keys 4–6 are &amp;lt;pad&amp;gt;, masked with -inf. The padding mask hides a key from every query, so over the keys no row is ever fully masked. Here the softmax runs over the queries (dim=-2), and the column of a &amp;lt;pad&amp;gt; key is a slice with every entry masked.</source>
        <translation>“The cat slept .”被填充到 7 个词元：它的键 4–6 是 &amp;lt;pad&amp;gt;，用 -inf 掩盖。填充掩码对所有查询遮住同一个键，所以沿键的方向不会有哪一行被整行掩盖。这里 softmax 沿查询（dim=-2）做，&amp;lt;pad&amp;gt; 键所在的列就成了所有元素都被掩盖的一片。</translation>
    </message>
    <message>
        <source>&lt;b&gt;NaN in columns 4, 5 and 6 of sentence 1&lt;/b&gt; (magenta): 84 NaN = 3 columns × 7 rows × 4 heads. A softmax of nothing but -inf is 0/0, in PyTorch too.</source>
        <translation>&lt;b&gt;句子 1 的第 4、5、6 列是 NaN&lt;/b&gt;（品红色）：84 个 NaN = 3 列 × 7 行 × 4 个头。全是 -inf 的 softmax 就是 0/0，在 PyTorch 中也一样。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Set the mask fill to -1e9&lt;/b&gt;: no NaN; every cell of those columns is 1/7 = 0.1429. All their logits are equal, so the softmax is uniform: no error, but the &amp;lt;pad&amp;gt; keys now get weight.</source>
        <translation>&lt;b&gt;把掩码填充值设为 -1e9&lt;/b&gt;：没有 NaN 了；这些列的每个格子都是 1/7 = 0.1429。它们的 logit 全部相等，所以 softmax 是均匀的：不报错，但 &amp;lt;pad&amp;gt; 键现在分到了权重。</translation>
    </message>
    <message>
        <source>Set the axis to keys (dim=-1): no NaN with either fill, because each query of “The cat slept .” still sees its 4 real keys.</source>
        <translation>把 softmax 维度设为键（dim=-1）：无论用哪种填充值都没有 NaN，因为“The cat slept .”的每个查询仍能看到它的 4 个真实的键。</translation>
    </message>
    <message>
        <source>The same NaN appears with the batch axis (dim=0) and the causal mask: a future key is masked in both sentences. In real models a query whose every key is padding does it.</source>
        <translation>用批次维度（dim=0）加因果掩码也会出现同样的 NaN：某个未来的键在两个句子中都被掩盖。在真实模型中，一个所有键都是填充的查询也会导致这种情况。</translation>
    </message>
    <message>
        <source>Coreference: 它 looks at 猫 (coreference)</source>
        <translation>指代消解：“它”看向“猫”（coreference）</translation>
    </message>
    <message>
        <source>Exercise 3 of the tutorial: make 它 take its output from 猫. d_model 16, 2 heads, seed 42, no positional encoding. Every word keeps its random vector except 猫: W_q and W_k are the random layers of seed 42, so 猫&apos;s score against 它&apos;s query is linear in 猫&apos;s vector, and AttnScope solved for the shortest vector that gives 猫 the weight 0.8 in every head.</source>
        <translation>教程的练习 3：让“它”的输出偏向“猫”。d_model 16，2 个头，种子 42，不加位置编码。除“猫”之外，每个词都保留随机向量：W_q 和 W_k 是种子 42 的随机层，所以“猫”对“它”的查询的分数是“猫”向量的线性函数；AttnScope 求出了在每个头中都让“猫”得到权重 0.8 的最短向量。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Row 它 (row 6) puts 0.8000 on 猫 (column 0) in both heads&lt;/b&gt;, so 0.8000 in the mean too; no other key gets more than 0.04.</source>
        <translation>&lt;b&gt;在两个头中，“它”这一行（第 6 行）都给“猫”（第 0 列）0.8000 的权重&lt;/b&gt;，所以平均也是 0.8000；其他键都不超过 0.04。</translation>
    </message>
    <message>
        <source>&lt;b&gt;The output follows the weights&lt;/b&gt;: 它&apos;s output (before W_o) points along V(猫), cosine 0.9999.</source>
        <translation>&lt;b&gt;输出跟着权重走&lt;/b&gt;：“它”的输出（W_o 之前）指向 V(猫) 的方向，余弦相似度 0.9999。</translation>
    </message>
    <message>
        <source>&lt;b&gt;猫&apos;s vector is long&lt;/b&gt;, norm 15.2 against 3.1 to 5.2: random layers do not pair 它 with 猫 by themselves. Other rows look at 猫 too (its column sums to 2.18 in head 0): only 它&apos;s row was designed.</source>
        <translation>&lt;b&gt;“猫”的向量很长&lt;/b&gt;，范数 15.2，而其他词在 3.1 到 5.2 之间：随机层本身不会把“它”和“猫”配对。其他行也在看“猫”（头 0 中它的列和为 2.18）：只有“它”这一行是设计出来的。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Set the seed to 7&lt;/b&gt;: new W_q and W_k, and 它 gives 猫 only 0.13. The weights are controllable, but only for the layers they were designed for; training is what finds such layers.</source>
        <translation>&lt;b&gt;把种子设为 7&lt;/b&gt;：W_q 和 W_k 换了，“它”只给“猫”0.13。注意力权重可控，但只对设计时针对的那组层有效；找到这样的层正是训练要做的事。</translation>
    </message>
    <message>
        <source>Coreference: “it” looks at “cat” (coreference-en)</source>
        <translation>指代消解：“it”看向“cat”（coreference-en）</translation>
    </message>
    <message>
        <source>Exercise 3 of the tutorial in English: make “it” take its output from “cat”. d_model 16, 2 heads, seed 42, no positional encoding. Every word keeps its random vector except “cat”, the shortest vector that gives it the weight 0.8 in every head, solved from the random W_q and W_k of seed 42.</source>
        <translation>英文版的教程练习 3：让“it”的输出偏向“cat”。d_model 16，2 个头，种子 42，不加位置编码。除“cat”之外，每个词都保留随机向量；“cat”的向量是根据种子 42 的随机 W_q 和 W_k 求出的、在每个头中都让它得到权重 0.8 的最短向量。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Row “it” (row 7) puts 0.8000 on “cat” (column 1) in both heads&lt;/b&gt;, so 0.8000 in the mean too; no other key gets more than 0.05.</source>
        <translation>&lt;b&gt;在两个头中，“it”这一行（第 7 行）都给“cat”（第 1 列）0.8000 的权重&lt;/b&gt;，所以平均也是 0.8000；其他键都不超过 0.05。</translation>
    </message>
    <message>
        <source>&lt;b&gt;The output follows the weights&lt;/b&gt;: the output of “it” (before W_o) points along V(cat), cosine 0.9999.</source>
        <translation>&lt;b&gt;输出跟着权重走&lt;/b&gt;：“it”的输出（W_o 之前）指向 V(cat) 的方向，余弦相似度 0.9999。</translation>
    </message>
    <message>
        <source>&lt;b&gt;“cat” has a long vector&lt;/b&gt;, norm 18.9 against 2.5 to 5.2. Other rows look at it too: its column sums to 6.58 in head 1. Only the row of “it” was designed.</source>
        <translation>&lt;b&gt;“cat”的向量很长&lt;/b&gt;，范数 18.9，而其他词在 2.5 到 5.2 之间。其他行也在看它：头 1 中它的列和为 6.58。只有“it”这一行是设计出来的。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Set the seed to 7&lt;/b&gt;: new W_q and W_k, and “it” gives “cat” only 0.12. The design fits the layers it was made for.</source>
        <translation>&lt;b&gt;把种子设为 7&lt;/b&gt;：W_q 和 W_k 换了，“it”只给“cat”0.12。这个设计只适用于它所针对的那组层。</translation>
    </message>
    <message>
        <source>Choose a preset from the Presets menu: each one sets up a lesson of the tutorial, and this panel says what to look at.</source>
        <translation>从“预设”菜单中选一个预设：每个预设对应教程中的一课，本面板会告诉你该看什么。</translation>
    </message>
    <message>
        <source>&amp;Presets</source>
        <translation>预设(&amp;P)</translation>
    </message>
    <message>
        <source>How to read the output</source>
        <comment>heading, as in the tutorial&apos;s lessons</comment>
        <translation>输出结果怎么看</translation>
    </message>
    <message>
        <source>On the command line:</source>
        <translation>在命令行中：</translation>
    </message>
    <message>
        <source>Presets</source>
        <translation>预设</translation>
    </message>
    <message>
        <source>Cross-attention: 我 爱 机器学习 reads “I love machine learning” (cross-attention)</source>
        <translation>交叉注意力：“我 爱 机器学习”看向“I love machine learning”（cross-attention）</translation>
    </message>
    <message>
        <source>A translation decoder writing 我 爱 机器学习 looks at the English source: Q comes from the Chinese words, K and V from “I love machine learning”. d_model 16, 2 heads, seed 42, no positional encoding. The English words&apos; vectors were designed, as in exercise 3, so that each Chinese word&apos;s row gives its source words 0.8 together.</source>
        <translation>翻译模型的解码器在写出“我 爱 机器学习”时回看英文原句：Q 来自中文词，K 和 V 来自“I love machine learning”。d_model 16，2 个头，种子 42，不加位置编码。英文词的向量是像练习 3 那样设计出来的，让每个中文词那一行给它对应的源词合计 0.8 的权重。</translation>
    </message>
    <message>
        <source>&lt;b&gt;The heatmaps are 3 × 4, not square&lt;/b&gt;: the rows are the 3 Chinese words (T_q = 3), the columns the 4 English words (T_k = 4). S = Q·Kᵀ is (B, H, T_q, T_k) = (1, 2, 3, 4).</source>
        <translation>&lt;b&gt;热力图是 3 × 4，不是方阵&lt;/b&gt;：行是 3 个中文词（T_q = 3），列是 4 个英文词（T_k = 4）。S = Q·Kᵀ 的形状是 (B, H, T_q, T_k) = (1, 2, 3, 4)。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Each row finds its source&lt;/b&gt;: 我 puts 0.8000 on I, 爱 0.8000 on love, and 机器学习 0.4000 on each of machine and learning: one word of the output, two of the input.</source>
        <translation>&lt;b&gt;每一行都找到了自己的源词&lt;/b&gt;：“我”给 I 0.8000，“爱”给 love 0.8000，“机器学习”给 machine 和 learning 各 0.4000：输出的一个词对应输入的两个词。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Rows sum to 1, columns need not&lt;/b&gt;: the softmax runs over the English keys of each Chinese query; the columns sum to 0.5333 to 0.9667.</source>
        <translation>&lt;b&gt;行和为 1，列和不必为 1&lt;/b&gt;：softmax 对每个中文查询在英文键上归一化；各列之和在 0.5333 到 0.9667 之间。</translation>
    </message>
    <message>
        <source>&lt;b&gt;The causal mask is off and disabled&lt;/b&gt;: no English word lies in the future of a Chinese one, so there is nothing to hide. Switch Attention to Self: the heatmaps become 3 × 3, the Chinese words looking at each other.</source>
        <translation>&lt;b&gt;因果掩码关闭且不可选&lt;/b&gt;：没有哪个英文词位于中文词的“未来”，没有什么需要遮住。把注意力切换为自注意力：热力图变成 3 × 3，中文词彼此相看。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Set the seed to 7&lt;/b&gt;: new W_q and W_k, and 我 gives I only 0.20. The design fits the layers it was made for.</source>
        <translation>&lt;b&gt;把种子设为 7&lt;/b&gt;：W_q 和 W_k 换了，“我”给 I 的权重只剩 0.20。这个设计只适用于它所针对的那组层。</translation>
    </message>
    <message>
        <source>The sentence or the switches are no longer this preset&apos;s, so its numbers below no longer describe the heatmaps. &lt;a href=&quot;reload&quot;&gt;Load the preset again&lt;/a&gt;</source>
        <translation>句子或开关已不是这个预设的了，下面的数字不再描述当前的热力图。&lt;a href=&quot;reload&quot;&gt;重新载入预设&lt;/a&gt;</translation>
    </message>
    <message>
        <source>Grouped-query attention: 8 heads, 2 K/V heads (gqa)</source>
        <translation>分组查询注意力：8 个头，2 个键/值头（gqa）</translation>
    </message>
    <message>
        <source>d_model 64, 8 query heads of d_k = 8, but only 2 K/V heads: W_k and W_v project to 2 × 8 = 16 features instead of 64, and query head h reads K/V head ⌊h / 4⌋, as Llama 3 and Mistral do (repeat_kv).</source>
        <translation>d_model 64，8 个查询头，每个 d_k = 8，但只有 2 个键/值头：W_k 和 W_v 只投影出 2 × 8 = 16 个特征而不是 64 个，查询头 h 读取键/值头 ⌊h / 4⌋，与 Llama 3 和 Mistral 的做法相同（repeat_kv）。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Heads 0–3 share K/V head 0, heads 4–7 share K/V head 1&lt;/b&gt;: within a group, column j of every heatmap is the same key k_j and the same value v_j; only the query rows differ.</source>
        <translation>&lt;b&gt;头 0–3 共用键/值头 0，头 4–7 共用键/值头 1&lt;/b&gt;：同一组内，每张热力图的第 j 列都是同一个键 k_j 和同一个值 v_j，只有查询行不同。</translation>
    </message>
    <message>
        <source>&lt;b&gt;The heatmaps of a group still differ&lt;/b&gt;: every head has its own queries, so it reads the same keys with other questions. The rows sum to 1.0000, the columns to 0.4582 … 1.6838.</source>
        <translation>&lt;b&gt;同一组的热力图仍然各不相同&lt;/b&gt;：每个头有自己的查询，用不同的问题去读同样的键。各行之和为 1.0000，各列之和为 0.4582 … 1.6838。</translation>
    </message>
    <message>
        <source>&lt;b&gt;The K/V cache is 4 times smaller&lt;/b&gt;: a decoder keeps 16 numbers of K and 16 of V per token instead of 64 each. That memory, not the arithmetic, is why today&apos;s models share K/V heads.</source>
        <translation>&lt;b&gt;K/V 缓存缩小到 1/4&lt;/b&gt;：解码器为每个词元只存 16 个 K 和 16 个 V 的数，而不是各 64 个。今天的模型共用键/值头，是为了省这份内存，而不是省计算。</translation>
    </message>
    <message>
        <source>Set K/V heads to 1 (multi-query attention): all 8 heads read one key and one value per token. Set it to 8: every head has its own again, the formula of 2017.</source>
        <translation>把键/值头设为 1（多查询注意力）：8 个头都读每个词元的同一个键和值。设为 8：每个头重新拥有自己的键和值，即 2017 年的公式。</translation>
    </message>
    <message>
        <source>RoPE: the same pair farther along (rope-distance)</source>
        <translation>RoPE：同一对词元换个位置（rope-distance）</translation>
    </message>
    <message>
        <source>“a b c a b d a b”: the pair “a b” stands at positions 0–1, 3–4 and 6–7. d_model 64, 2 heads, positional “rope”: nothing is added to x; Q_h and K_h are rotated by their positions instead (Llama, Qwen). Hover the cells to read their scores.</source>
        <translation>“a b c a b d a b”：“a b” 这一对出现在位置 0–1、3–4 和 6–7。d_model 64，2 个头，位置编码为“rope”：x 上什么也不加，而是按位置旋转 Q_h 和 K_h（Llama、Qwen）。把鼠标悬停在格子上可以读出分数。</translation>
    </message>
    <message>
        <source>&lt;b&gt;b looking at a scores -3.3090 three times&lt;/b&gt; in head 0 (rows 1, 4 and 7, one column to the left; 1.4289 in head 1): with RoPE, q_i·k_j depends on the two tokens and on i − j only.</source>
        <translation>&lt;b&gt;b 看 a 的分数三次都是 -3.3090&lt;/b&gt;（头 0 的第 1、4、7 行，各自左边一列；头 1 中为 1.4289）：用 RoPE 时，q_i·k_j 只取决于这两个词元和 i − j。</translation>
    </message>
    <message>
        <source>&lt;b&gt;At distance 4 the score is another, fixed as well&lt;/b&gt;: b at 4 looking at a at 0 and b at 7 looking at a at 3 both score -1.7591 in head 0.</source>
        <translation>&lt;b&gt;距离为 4 时分数不同，但同样固定&lt;/b&gt;：头 0 中，位置 4 的 b 看位置 0 的 a、位置 7 的 b 看位置 3 的 a，分数都是 -1.7591。</translation>
    </message>
    <message>
        <source>Set positional to sinusoidal: the three cells of distance 1 score -3.4802, -4.0195 and -5.2636. The encoding added to x mixes the absolute positions into q and k.</source>
        <translation>把位置编码设为正弦：距离为 1 的三个格子分数变成 -3.4802、-4.0195 和 -5.2636。加到 x 上的编码把绝对位置混进了 q 和 k。</translation>
    </message>
    <message>
        <source>Set positional to none: all five cells score -2.6949, near or far: without positions, attention cannot tell them apart.</source>
        <translation>把位置编码设为无：五个格子无论远近分数都是 -2.6949：没有位置信息，注意力分不清远近。</translation>
    </message>
    <message>
        <source>QK-norm without √d_k (qk-norm)</source>
        <translation>QK-norm 且不除以 √d_k（qk-norm）</translation>
    </message>
    <message>
        <source>The saturation preset (d_model 512, one head, no ÷√d_k) with QK-norm: every row of Q_h and K_h is divided by its root mean square (Qwen3, OLMo 2), so every q and k has length √d_k and |q·k| ≤ d_k = 512. Does that make ÷√d_k unnecessary? The numbers say no.</source>
        <translation>在 saturation 预设（d_model 512，一个头，不除以 √d_k）上打开 QK-norm：Q_h 和 K_h 的每一行都除以自己的均方根（Qwen3、OLMo 2），于是每个 q 和 k 的长度都是 √d_k，|q·k| ≤ d_k = 512。这样是不是就不需要 ÷√d_k 了？数字说：不是。</translation>
    </message>
    <message>
        <source>&lt;b&gt;The std of the logits doubles&lt;/b&gt;: 21.1494 against 10.6405 without QK-norm. The normed q and k are longer than the projections were, and their angles spread as before, so q·k still spreads like √d_k.</source>
        <translation>&lt;b&gt;logit 的标准差翻了一倍&lt;/b&gt;：21.1494，不开 QK-norm 时为 10.6405。归一化后的 q 和 k 比原来的投影更长，而它们之间夹角的分布没变，所以 q·k 的离散程度仍按 √d_k 增长。</translation>
    </message>
    <message>
        <source>&lt;b&gt;4 of 11 rows are saturated&lt;/b&gt; (3 without QK-norm), the entropy falls to 0.44 of 3.46 bits. The largest |logit| is 49.51: inside the bound of 512, far past what a softmax can take.</source>
        <translation>&lt;b&gt;11 行中有 4 行饱和&lt;/b&gt;（不开 QK-norm 时为 3 行），熵降到 0.44 比特（最多 3.46）。最大的 |logit| 是 49.51：在 512 的上限之内，却远超 softmax 能承受的范围。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Set scaling to ÷ √d_k&lt;/b&gt;: the std drops to 0.9347, no row is saturated, and every |logit| ≤ √d_k ≈ 22.6 (here at most 2.19). Qwen3 does both: QK-norm and ÷√d_k.</source>
        <translation>&lt;b&gt;把缩放设为 ÷ √d_k&lt;/b&gt;：标准差降到 0.9347，没有行饱和，且每个 |logit| ≤ √d_k ≈ 22.6（这里最大 2.19）。Qwen3 两样都用：QK-norm 加 ÷√d_k。</translation>
    </message>
    <message>
        <source>What QK-norm adds is the bound itself: however large the activations grow in training, the logits cannot. Without it the scaled std here is 0.4702, bounded by nothing.</source>
        <translation>QK-norm 带来的是这个上限本身：训练中激活值无论长多大，logit 都不会跟着变大。不开它时，这里缩放后的标准差是 0.4702，但没有任何上限约束。</translation>
    </message>
    <message>
        <source>ALiBi: positions from a bias (alibi)</source>
        <translation>ALiBi：用偏置表示位置（alibi）</translation>
    </message>
    <message>
        <source>d_model 64, 8 heads, and no positional encoding. ALiBi (BLOOM, MPT) subtracts m_h·|i − j| from every logit instead: a penalty growing with the distance, steepest in head 0 (m = 1/2), halving from head to head down to 1/256 in head 7.</source>
        <translation>d_model 64，8 个头，没有位置编码。ALiBi（BLOOM、MPT）改为从每个 logit 中减去 m_h·|i − j|：一个随距离增长的惩罚，头 0 最陡（m = 1/2），之后每个头减半，到头 7 为 1/256。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Head 0 shows a band along the diagonal&lt;/b&gt;: its weights average 0.3031 on the diagonal, 0.1741 one key away, 0.0225 five away and 0.0029 ten away.</source>
        <translation>&lt;b&gt;头 0 沿对角线出现一条带&lt;/b&gt;：对角线上的权重平均为 0.3031，相隔 1 个键为 0.1741，相隔 5 个为 0.0225，相隔 10 个为 0.0029。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Head 7 is almost flat&lt;/b&gt;: 0.0943 on the diagonal, close to 1/11 = 0.0909, because its slope 1/256 barely moves the logits. Together the heads look near and far.</source>
        <translation>&lt;b&gt;头 7 几乎是平的&lt;/b&gt;：对角线上为 0.0943，接近 1/11 = 0.0909，因为它的斜率 1/256 几乎不改变 logit。各个头合起来，远近都能看到。</translation>
    </message>
    <message>
        <source>&lt;b&gt;The std of the logits is 0.3177 from the dot products, 0.8385 with ALiBi&apos;s bias&lt;/b&gt;: the distance penalty spreads the logits more than the words do.</source>
        <translation>&lt;b&gt;只算点积时 logit 的标准差是 0.3177，加上 ALiBi 的偏置后是 0.8385&lt;/b&gt;：距离惩罚让 logit 拉开的幅度比词本身还大。</translation>
    </message>
    <message>
        <source>Set ALiBi off: head 0 averages 0.0939 on the diagonal, no band is left; without positions, attention cannot tell near from far.</source>
        <translation>关闭 ALiBi：头 0 对角线上的平均权重为 0.0939，那条带消失了；没有位置信息，注意力分不清远近。</translation>
    </message>
    <message>
        <source>Soft-capping the saturated logits (softcap)</source>
        <translation>对饱和的 logit 做软截断（softcap）</translation>
    </message>
    <message>
        <source>The saturation preset (d_model 512, one head, no ÷√d_k) with soft-capping at c = 10: every logit L becomes c·tanh(L/c), close to L while small, never beyond ±10 (Gemma 2 caps its attention logits at 50).</source>
        <translation>在 saturation 预设（d_model 512，一个头，不除以 √d_k）上加 c = 10 的软截断：每个 logit L 变成 c·tanh(L/c)，L 小时几乎不变，但永远不超出 ±10（Gemma 2 把注意力 logit 截断在 50）。</translation>
    </message>
    <message>
        <source>&lt;b&gt;No row is saturated&lt;/b&gt;: 0 of 11, against 3 of 11 without the cap; the mean largest weight falls from 0.80 to 0.51.</source>
        <translation>&lt;b&gt;没有行饱和&lt;/b&gt;：11 行中 0 行，不截断时为 3 行；平均最大权重从 0.80 降到 0.51。</translation>
    </message>
    <message>
        <source>&lt;b&gt;The std of the logits is 10.6405 before the cap and 6.8783 after it&lt;/b&gt;: the cap squeezes the large logits, the ones that made the rows one-hot.</source>
        <translation>&lt;b&gt;logit 的标准差截断前为 10.6405，截断后为 6.8783&lt;/b&gt;：截断压缩的是大的 logit，正是它们让各行变成 one-hot。</translation>
    </message>
    <message>
        <source>&lt;b&gt;The entropy rises from 0.72 to 1.64 bits&lt;/b&gt; (of 3.46): the rows still prefer some keys, but none takes everything. The warning still calls them peaked.</source>
        <translation>&lt;b&gt;熵从 0.72 比特升到 1.64 比特&lt;/b&gt;（最多 3.46）：各行仍偏爱某些键，但没有哪个键独占全部。警告仍说它们过于尖锐。</translation>
    </message>
    <message>
        <source>Try c = 30: 2 of 11 rows saturate again (std 9.8409 after the cap). Try c = 1: std 0.9733 and 3.07 bits, the rows almost uniform. The cap does not replace ÷√d_k.</source>
        <translation>试试 c = 30：11 行中又有 2 行饱和（截断后标准差 9.8409）。试试 c = 1：标准差 0.9733，熵 3.07 比特，各行几乎均匀。截断代替不了 ÷√d_k。</translation>
    </message>
    <message>
        <source>A sliding window of 4 keys (sliding-window)</source>
        <translation>4 个键的滑动窗口（sliding-window）</translation>
    </message>
    <message>
        <source>A causal mask over a sentence of 22 tokens, and a sliding window W = 4: query i sees only keys i − 3 … i (Mistral, Gemma&apos;s local layers). Key j is masked when j &gt; i or i − j ≥ 4.</source>
        <translation>在 22 个词元的句子上加因果掩码和滑动窗口 W = 4：查询 i 只能看到键 i − 3 … i（Mistral、Gemma 的局部层）。当 j &gt; i 或 i − j ≥ 4 时，键 j 被掩盖。</translation>
    </message>
    <message>
        <source>&lt;b&gt;A band 4 keys wide instead of a triangle&lt;/b&gt;: the last row (“.”) puts 0.2993, 0.1691, 0.2229 and 0.3087 on “table all day .” in head 0, and exactly 0 on the 18 keys before them.</source>
        <translation>&lt;b&gt;一条 4 个键宽的带，而不是三角形&lt;/b&gt;：头 0 中最后一行（“.”）在 “table all day .” 上分别放 0.2993、0.1691、0.2229 和 0.3087，在它们之前的 18 个键上恰好为 0。</translation>
    </message>
    <message>
        <source>&lt;b&gt;The rows still sum to 1.0000&lt;/b&gt;: the hidden keys&apos; share goes to the 4 visible ones. The mean largest weight rises from 0.23 to 0.41, the entropy falls from 3.07 to 1.76 bits (at most 2 bits for 4 keys).</source>
        <translation>&lt;b&gt;各行之和仍为 1.0000&lt;/b&gt;：被遮住的键的份额归给了可见的 4 个键。平均最大权重从 0.23 升到 0.41，熵从 3.07 比特降到 1.76 比特（4 个键最多 2 比特）。</translation>
    </message>
    <message>
        <source>&lt;b&gt;The first token is seen by 4 rows only&lt;/b&gt;: its column sums to 2.4728 in head 0, against 4.4807 without the window.</source>
        <translation>&lt;b&gt;第一个词元只被 4 行看到&lt;/b&gt;：头 0 中它那一列之和为 2.4728，没有窗口时为 4.4807。</translation>
    </message>
    <message>
        <source>Information still travels farther than 4 tokens, through the layers: each one passes it 3 keys on. Set the window to off: the triangle of causal-decoder is back.</source>
        <translation>信息仍能传到 4 个词元之外，靠的是层层传递：每一层再往前传 3 个键。把窗口关掉：causal-decoder 的三角形又回来了。</translation>
    </message>
    <message>
        <source>An attention sink (attention-sink)</source>
        <translation>注意力汇聚点（attention-sink）</translation>
    </message>
    <message>
        <source>A causal mask, and a sink: one more logit s = 1 in every row&apos;s softmax, a key without a value that is dropped after the softmax (gpt-oss; s = 0 is “softmax off by one”). A head that finds nothing worth reading can give its weight to the sink.</source>
        <translation>因果掩码，再加一个汇聚点：每行的 softmax 里多一个 logit s = 1，它像一个没有值的键，softmax 之后就被丢掉（gpt-oss；s = 0 就是 “softmax off by one”）。找不到值得读的内容的头，可以把权重交给汇聚点。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Row 0 no longer puts 1.0000 on the first token&lt;/b&gt;: “The” sees only itself, and without a sink it takes everything. With s = 1 row 0 gives it 0.2256 to 0.2956 (by head), the sink the rest.</source>
        <translation>&lt;b&gt;第 0 行不再把 1.0000 全放在第一个词元上&lt;/b&gt;：“The” 只能看到自己，没有汇聚点时它拿走全部权重。s = 1 时第 0 行只给它 0.2256 到 0.2956（因头而异），其余归汇聚点。</translation>
    </message>
    <message>
        <source>&lt;b&gt;The first token&apos;s column sums to 2.0039 in head 0&lt;/b&gt;, against 3.6412 without the sink: in a causal model the first token collects the weight of heads with nothing to do; the sink takes over that job.</source>
        <translation>&lt;b&gt;头 0 中第一个词元那一列之和为 2.0039&lt;/b&gt;，没有汇聚点时为 3.6412：在因果模型里，无事可做的头把权重堆到第一个词元上；现在这份差事由汇聚点接手。</translation>
    </message>
    <message>
        <source>&lt;b&gt;The rows sum to 0.2256 … 0.9030, not 1&lt;/b&gt;: what is missing went to the sink. The warning counts 8 rows whose sink takes more than half.</source>
        <translation>&lt;b&gt;各行之和为 0.2256 … 0.9030，而不是 1&lt;/b&gt;：少掉的部分给了汇聚点。警告统计出 8 行的汇聚点拿走了一半以上。</translation>
    </message>
    <message>
        <source>Set the sink to 0: row 0 gives the first token about half (0.4419 to 0.5329). Set it to off: this is the causal-decoder preset.</source>
        <translation>把汇聚点设为 0：第 0 行给第一个词元大约一半（0.4419 到 0.5329）。把它关掉：就是 causal-decoder 预设。</translation>
    </message>
</context>
<context>
    <name>attn::ui::RolloutBars</name>
    <message>
        <source>“%1” (%2): %3</source>
        <translation>“%1”（%2）：%3</translation>
    </message>
</context>
<context>
    <name>attn::ui::RolloutButton</name>
    <message>
        <source>R&amp;ollout…</source>
        <translation>注意力展开(&amp;O)…</translation>
    </message>
    <message>
        <source>How much of each input token flows into each position at the top (attention rollout)</source>
        <translation>每个输入词元有多少流入顶层的每个位置（注意力展开，Attention Rollout）</translation>
    </message>
</context>
<context>
    <name>attn::ui::RolloutDialog</name>
    <message>
        <source>“%1” (%2) at the top holds %3 of “%4” (%5)</source>
        <translation>顶层的“%1”（%2）含有 %3 的“%4”（%5）</translation>
    </message>
    <message>
        <source>Row %1, “%2” (pinned: click it again to follow the mouse): how much of each token flows into it</source>
        <translation>第 %1 行，“%2”（已固定：再点一次则跟随鼠标）：每个词元有多少流入它</translation>
    </message>
    <message>
        <source>Row %1, “%2”: how much of each token flows into it (click a row to pin it)</source>
        <translation>第 %1 行，“%2”：每个词元有多少流入它（点击一行可固定）</translation>
    </message>
    <message>
        <source>The rollout is not computed yet.</source>
        <translation>注意力展开还没有算出。</translation>
    </message>
    <message>
        <source>Export Rollout</source>
        <translation>导出注意力展开</translation>
    </message>
    <message>
        <source>Attention Rollout</source>
        <translation>注意力展开 (Attention Rollout)</translation>
    </message>
    <message>
        <source>Attention rollout (Abnar &amp; Zuidema 2020): each layer&apos;s heads averaged, the residual connection added as the identity and each row normalised, then multiplied from the first layer to the last. Row i says how much of each input token flows into position i at the top. Point at a row for its bars; click to pin it.</source>
        <translation>注意力展开（Abnar 与 Zuidema，2020）：对每层的头取平均，加上单位矩阵代表残差连接并按行归一化，再从第一层乘到最后一层。第 i 行表示每个输入词元有多少流入顶层的位置 i。指向一行可看它的柱状图；点击可固定。</translation>
    </message>
    <message>
        <source>&amp;Export…</source>
        <translation>导出(&amp;E)…</translation>
    </message>
    <message>
        <source>The heatmap and the row as PNG, SVG or PDF, or the rollout as CSV or JSON</source>
        <translation>把热力图和该行保存为 PNG、SVG 或 PDF，或把注意力展开保存为 CSV 或 JSON</translation>
    </message>
    <message>
        <source>The window&apos;s run, as it runs now: its switches and knock-outs apply.</source>
        <translation>窗口当前的运行：它的开关和敲除都生效。</translation>
    </message>
</context>
<context>
    <name>attn::ui::SessionDrop</name>
    <message>
        <source>Cannot Open Session</source>
        <translation>无法打开会话</translation>
    </message>
</context>
<context>
    <name>attn::ui::SessionFiles</name>
    <message>
        <source>AttnScope sessions (*.attnscope)</source>
        <translation>AttnScope 会话 (*.attnscope)</translation>
    </message>
    <message>
        <source>Open Session</source>
        <translation>打开会话</translation>
    </message>
    <message>
        <source>Cannot Open Session</source>
        <translation>无法打开会话</translation>
    </message>
    <message>
        <source>Cannot Save Session</source>
        <translation>无法保存会话</translation>
    </message>
    <message>
        <source>attention</source>
        <translation>注意力</translation>
    </message>
    <message>
        <source>Save Session</source>
        <translation>保存会话</translation>
    </message>
    <message>
        <source>No recent sessions</source>
        <translation>没有最近的会话</translation>
    </message>
    <message>
        <source>Restore Your Work?</source>
        <translation>恢复之前的工作？</translation>
    </message>
    <message>
        <source>Cannot Restore</source>
        <translation>无法恢复</translation>
    </message>
    <message>
        <source>%1 It was kept as %2.</source>
        <translation>%1 该文件已保留为 %2。</translation>
    </message>
    <message>
        <source>One window shows one session: %1 is open, not %2.</source>
        <extracomment>Files named on the command line; %2 lists those left unopened.</extracomment>
        <translation>一个窗口只显示一个会话：已打开 %1，未打开 %2。</translation>
    </message>
    <message>
        <source>Session Opened</source>
        <translation>已打开会话</translation>
    </message>
    <message>
        <source>AttnScope did not close normally. Restore the sentence and switches you had in the main window on %1? Discard keeps what you last saved or left open.</source>
        <translation>AttnScope 上次没有正常关闭。要恢复你在 %1 时主窗口中的句子和开关吗？选“放弃”则保留你上次保存或正常关闭时的内容。</translation>
    </message>
    <message>
        <source>&amp;Restore</source>
        <translation>恢复(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Discard</source>
        <translation>放弃(&amp;D)</translation>
    </message>
    <message>
        <source>Once you have answered, AttnScope opens %1.</source>
        <comment>%1 lists model folders and attention files</comment>
        <translation>回答之后，AttnScope 会打开 %1。</translation>
    </message>
    <message>
        <source>Restore keeps that work and leaves %1 unopened; Discard opens it.</source>
        <comment>%1 names session files</comment>
        <translation>选“恢复”会保留那份工作，不打开 %1；选“放弃”则打开它。</translation>
    </message>
    <message>
        <source>Session Not Opened</source>
        <translation>未打开会话</translation>
    </message>
    <message>
        <source>%1 was not opened, so that the restored work stays in the window. Save it if you want to keep it, then open %1 with File → Open Session.</source>
        <translation>没有打开 %1，以免覆盖窗口中恢复的工作。如需保留这份工作，请先保存，再用“文件 → 打开会话”打开 %1。</translation>
    </message>
</context>
<context>
    <name>attn::ui::StatisticsPanel</name>
    <message>
        <source>head</source>
        <comment>attention head, table header</comment>
        <translation>头</translation>
    </message>
    <message>
        <source>The head, numbered from 0 as PyTorch indexes it.</source>
        <translation>头的编号，与 PyTorch 的索引一样从 0 开始。</translation>
    </message>
    <message>
        <source>std(S)</source>
        <comment>standard deviation of the scores S = QKᵀ</comment>
        <translation>std(S)</translation>
    </message>
    <message>
        <source>Spread (standard deviation) of the raw scores S = QKᵀ of this head. It grows like √d_k.</source>
        <translation>该头原始分数 S = QKᵀ 的离散程度（标准差），随 √d_k 增大。</translation>
    </message>
    <message>
        <source>std(L)</source>
        <comment>standard deviation of the logits L = S·scale/τ</comment>
        <translation>std(L)</translation>
    </message>
    <message>
        <source>Spread of the logits L = S·scale/τ that go into the softmax, before masking. The textbook ÷√d_k keeps it from growing with d_k.</source>
        <translation>送入 softmax 的 logit L = S·scale/τ 的标准差（掩码之前）。标准的 ÷√d_k 让它不随 d_k 增大。</translation>
    </message>
    <message>
        <source>ratio</source>
        <comment>std(L) / std(S)</comment>
        <translation>比值</translation>
    </message>
    <message>
        <source>std(L) ÷ std(S): the factor the scaling and the temperature applied, e.g. 0.25 = 1/√16.</source>
        <translation>std(L) ÷ std(S)：缩放和温度合起来乘上的系数，例如 0.25 = 1/√16。</translation>
    </message>
    <message>
        <source>entropy / max (bits)</source>
        <comment>mean row entropy and its largest possible value</comment>
        <translation>熵 / 最大值（比特）</translation>
    </message>
    <message>
        <source>How spread out each row&apos;s attention is, in bits, averaged over the rows, and the most it could be (every visible key weighted alike). Near 0: each query picks one key.</source>
        <translation>每行注意力的分散程度（熵，单位比特），对所有行取平均；以及它可能的最大值（所有可见键的权重都相同时）。接近 0：每个查询只挑中一个键。</translation>
    </message>
    <message>
        <source>saturated</source>
        <comment>share of saturated rows</comment>
        <translation>饱和</translation>
    </message>
    <message>
        <source>Share of rows whose largest weight is at least 0.99: almost one-hot, so little gradient flows back. Tinted from 25%.</source>
        <translation>最大权重不小于 0.99 的行所占的比例：这些行几乎是 one-hot，能传回的梯度很少。达到 25% 时标色。</translation>
    </message>
    <message>
        <source>row sums</source>
        <comment>smallest and largest sum of a row of weights</comment>
        <translation>行和</translation>
    </message>
    <message>
        <source>Smallest and largest row sum. Each row is a distribution over the keys and should sum to 1; tinted when one does not.</source>
        <translation>最小和最大的行和。每行是在所有键上的概率分布，和应为 1；有一行不为 1 就标色。</translation>
    </message>
    <message>
        <source>column sums</source>
        <comment>smallest and largest sum of a column of weights</comment>
        <translation>列和</translation>
    </message>
    <message>
        <source>Smallest and largest column sum. Columns need not sum to 1: a large sum means many queries look at that key.</source>
        <translation>最小和最大的列和。列和不必为 1：列和大说明有很多查询在看这个键。</translation>
    </message>
    <message>
        <source>NaN</source>
        <comment>count of weights that are not a number</comment>
        <translation>NaN</translation>
    </message>
    <message>
        <source>How many weights are NaN (not a number), e.g. in a row whose keys are all masked with -inf. Tinted when not 0.</source>
        <translation>值为 NaN（非数）的权重个数，例如出现在所有键都被 -inf 掩盖的行中。不为 0 时标色。</translation>
    </message>
    <message>
        <source>×1, no scaling</source>
        <translation>×1，不缩放</translation>
    </message>
    <message>
        <source>No figures yet: type a sentence to compute its attention.</source>
        <translation>还没有数据：输入一句话，即可计算它的注意力。</translation>
    </message>
    <message>
        <source>std before scaling %1 → after %2 (%3)</source>
        <extracomment>%3 is the factor between them, e.g. &quot;×0.25 = 1/√d_k&quot;</extracomment>
        <translation>缩放前标准差 %1 → 缩放后 %2（%3）</translation>
    </message>
    <message>
        <source>mean entropy %1 of at most %2 bits</source>
        <translation>平均熵 %1 比特（最大 %2）</translation>
    </message>
    <message>
        <source>saturated rows %1%</source>
        <translation>饱和行 %1%</translation>
    </message>
    <message>
        <source>row sums %1 – %2</source>
        <translation>行和 %1 – %2</translation>
    </message>
    <message>
        <source>NaN %1</source>
        <comment>count of weights that are not a number</comment>
        <translation>NaN %1</translation>
    </message>
    <message>
        <source>±inf %1</source>
        <comment>count of infinite weights</comment>
        <translation>±inf %1</translation>
    </message>
    <message>
        <source>Per head</source>
        <comment>caption of the table with one row per attention head</comment>
        <translation>各头统计</translation>
    </message>
    <message>
        <source>Per head of sequence %1: “%2”</source>
        <extracomment>%1 is the sequence&apos;s number (from 0), %2 its first tokens</extracomment>
        <translation>序列 %1 的各头统计：“%2”</translation>
    </message>
    <message>
        <source>%1 of the %2 rows with more than one visible key are saturated</source>
        <translation>可见键多于一个的 %2 行中，有 %1 行已饱和</translation>
    </message>
    <message>
        <source>Rows that do not sum to 1: %1</source>
        <translation>行和不为 1 的行：%1</translation>
    </message>
    <message>
        <source>Rows with NaN: %1</source>
        <translation>含 NaN 的行：%1</translation>
    </message>
    <message>
        <source>Warnings</source>
        <comment>heading of the list of warnings</comment>
        <translation>警告</translation>
    </message>
    <message>
        <source>No warnings: this is the textbook formula behaving as expected.</source>
        <translation>没有警告：这是标准公式，表现符合预期。</translation>
    </message>
    <message>
        <source>No warnings: the weights look healthy, although the formula is not the textbook one.</source>
        <translation>没有警告：权重看起来正常，不过用的并不是标准公式。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Not current.&lt;/b&gt; %1 These figures are those of the last input that could be computed.</source>
        <extracomment>%1 is why the newest input cannot be computed</extracomment>
        <translation>&lt;b&gt;不是当前结果。&lt;/b&gt;%1 这些数字来自上一次能够计算的输入。</translation>
    </message>
    <message>
        <source>mean row max</source>
        <comment>the mean over the rows of each row&apos;s largest weight</comment>
        <translation>行最大值均值</translation>
    </message>
    <message>
        <source>Each row&apos;s largest weight, averaged over the rows: 1 means every query looks at a single key. One cell of 1.00 in a heatmap does not make this 1 when the other rows spread their weight.</source>
        <translation>每行最大权重在各行上的平均值：为 1 表示每个查询只看一个键。热力图中某一格为 1.00，并不意味着这里是 1——其他行可能把权重分散开了。</translation>
    </message>
    <message>
        <source>std(L) final</source>
        <comment>standard deviation of the logits after ALiBi and the cap</comment>
        <translation>最终 std(L)</translation>
    </message>
    <message>
        <source>Spread of the logits after ALiBi&apos;s bias and the soft-cap c·tanh(L/c), the numbers the softmax really sees, before masking.</source>
        <translation>加上 ALiBi 的偏置并经过软截断 c·tanh(L/c) 之后 logit 的标准差（掩码之前），也就是 softmax 真正看到的数。</translation>
    </message>
    <message>
        <source>sink max</source>
        <comment>the largest weight the attention sink took from a row</comment>
        <translation>汇聚点最大值</translation>
    </message>
    <message>
        <source>The largest weight the sink took from a row of this head: what the query gave to nothing. Tinted when it is more than half.</source>
        <translation>汇聚点从该头某一行拿走的最大权重：也就是查询交给“无”的部分。超过一半时标色。</translation>
    </message>
    <message>
        <source>With a sink each row sums to 1 minus what the sink took.</source>
        <translation>有汇聚点时，每行之和为 1 减去汇聚点拿走的部分。</translation>
    </message>
    <message>
        <source>Rows whose sink took more than half: %1</source>
        <translation>汇聚点拿走一半以上权重的行：%1</translation>
    </message>
    <message>
        <source>std after the cap %1</source>
        <comment>of the logits, after c·tanh(L/c)</comment>
        <translation>截断后标准差 %1</translation>
    </message>
    <message>
        <source>std after ALiBi %1</source>
        <comment>of the logits, after the bias −m·|i − j|</comment>
        <translation>ALiBi 后标准差 %1</translation>
    </message>
    <message>
        <source>sink took at most %1, %2 on average, more than half in %3 rows</source>
        <extracomment>%1 the largest weight a sink took from a row, %2 the mean, %3 how many rows it took more than half of</extracomment>
        <translation>汇聚点最多拿走 %1，平均 %2，有 %3 行超过一半</translation>
    </message>
</context>
<context>
    <name>attn::ui::SweepChart</name>
    <message>
        <source>standard deviation</source>
        <comment>of the logits</comment>
        <translation>标准差</translation>
    </message>
    <message>
        <source>How spread is each row? Its entropy</source>
        <translation>每行有多分散？看它的熵</translation>
    </message>
    <message>
        <source>not scaled</source>
        <translation>未缩放</translation>
    </message>
    <message>
        <source>scaled by 1/√d_k</source>
        <translation>乘以 1/√d_k 缩放</translation>
    </message>
    <message>
        <source>How close to one-hot? The largest weight of a row</source>
        <translation>离 one-hot 有多近？看每行的最大权重</translation>
    </message>
    <message>
        <source>Why divide QKᵀ by √d_k? The same text at growing d_k</source>
        <translation>为什么要把 QKᵀ 除以 √d_k？同一段文本，d_k 逐渐增大</translation>
    </message>
    <message>
        <source>“%1”</source>
        <comment>the sentence, quoted</comment>
        <translation>“%1”</translation>
    </message>
    <message>
        <source>H = 1, d_model = d_k</source>
        <translation>H = 1，d_model = d_k</translation>
    </message>
    <message>
        <source>seed %1</source>
        <translation>种子 %1</translation>
    </message>
    <message>
        <source>τ %1</source>
        <comment>temperature</comment>
        <translation>温度 τ %1</translation>
    </message>
    <message>
        <source>The sweep&apos;s figure is a PNG, SVG or PDF file, not %1.</source>
        <translation>扫描图只能保存为 PNG、SVG 或 PDF 文件，不能是 %1。</translation>
    </message>
    <message>
        <source>d_k (each step doubles it)</source>
        <translation>d_k（每一格翻一倍）</translation>
    </message>
    <message>
        <source>How wide are the logits? std(QKᵀ) and std(QKᵀ/√d_k)</source>
        <translation>logit 有多分散？std(QKᵀ) 与 std(QKᵀ/√d_k)</translation>
    </message>
    <message>
        <source>grows like √d_k</source>
        <translation>按 √d_k 增长</translation>
    </message>
    <message>
        <source>uniform row</source>
        <translation>均匀的行</translation>
    </message>
    <message>
        <source>entropy (bits)</source>
        <translation>熵（比特）</translation>
    </message>
    <message>
        <source>saturated (%1)</source>
        <translation>饱和（%1）</translation>
    </message>
    <message>
        <source>largest weight</source>
        <translation>最大权重</translation>
    </message>
    <message>
        <source>How much gradient flows back? ‖diag(p) − ppᵀ‖</source>
        <translation>能传回多少梯度？‖diag(p) − ppᵀ‖</translation>
    </message>
    <message>
        <source>Jacobian norm</source>
        <translation>雅可比范数</translation>
    </message>
    <message>
        <source>d_k %1 → %2</source>
        <comment>a point of a chart, for screen readers</comment>
        <translation>d_k %1 → %2</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <comment>a chart&apos;s line and its points</comment>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>No points yet.</source>
        <comment>a sweep chart before its compute, for screen readers</comment>
        <translation>还没有数据点。</translation>
    </message>
    <message>
        <source>scaled, after ALiBi/cap</source>
        <translation>已缩放，ALiBi/截断后</translation>
    </message>
    <message>
        <source>not scaled, after ALiBi/cap</source>
        <translation>未缩放，ALiBi/截断后</translation>
    </message>
    <message>
        <source>QK-norm</source>
        <translation>QK-norm</translation>
    </message>
    <message>
        <source>RoPE θ %1</source>
        <translation>RoPE θ %1</translation>
    </message>
    <message>
        <source>ALiBi</source>
        <translation>ALiBi</translation>
    </message>
    <message>
        <source>soft-cap c = %1</source>
        <translation>软截断 c = %1</translation>
    </message>
    <message>
        <source>window of %1 keys</source>
        <translation>%1 个键的窗口</translation>
    </message>
    <message>
        <source>sink s = %1</source>
        <translation>汇聚点 s = %1</translation>
    </message>
</context>
<context>
    <name>attn::ui::SweepDialog</name>
    <message>
        <source>computing… %v of %m</source>
        <comment>points of the sweep</comment>
        <translation>计算中… %v / %m</translation>
    </message>
    <message>
        <source>Cannot tell the format of %1: name it .png, .svg, .pdf or .json.</source>
        <translation>无法判断 %1 的格式：请以 .png、.svg、.pdf 或 .json 作为扩展名。</translation>
    </message>
    <message>
        <source>Export the Sweep</source>
        <translation>导出扫描结果</translation>
    </message>
    <message>
        <source>The sweep failed: %1</source>
        <translation>扫描失败：%1</translation>
    </message>
    <message>
        <source>Why √d_k? The d_k Sweep</source>
        <translation>为什么要 √d_k？d_k 扫描</translation>
    </message>
    <message>
        <source>d_k &amp;from</source>
        <translation>d_k 从(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;to</source>
        <comment>d_k from … to …</comment>
        <translation>到(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;Compute</source>
        <translation>计算(&amp;C)</translation>
    </message>
    <message>
        <source>Compute every d_k of the range, with and without scaling</source>
        <translation>对范围内的每个 d_k 分别计算缩放和不缩放的结果</translation>
    </message>
    <message>
        <source>&amp;Export…</source>
        <translation>导出(&amp;E)…</translation>
    </message>
    <message>
        <source>Save the charts as PNG, SVG or PDF, or the numbers as JSON</source>
        <translation>把图表保存为 PNG、SVG 或 PDF，或把数值保存为 JSON</translation>
    </message>
    <message>
        <source>Every point computes the same text with one head and d_model = d_k. Without the scaling (vermilion) the spread of QKᵀ grows like √d_k: each row&apos;s softmax saturates towards one-hot — its entropy falls, its largest weight nears 1 — and the gradient through the softmax vanishes. Dividing by √d_k (blue) keeps the spread, and the softmax, the same at every d_k.</source>
        <translation>每个点都用同一段文本计算，一个头，d_model = d_k。不缩放时（朱红色），QKᵀ 的离散程度随 √d_k 增长：每行的 softmax 逐渐饱和成 one-hot——熵下降，最大权重趋近 1——经过 softmax 的梯度随之消失。除以 √d_k 后（蓝色），离散程度和 softmax 在每个 d_k 下都保持不变。</translation>
    </message>
    <message>
        <source>points computed: %1</source>
        <translation>已计算的点：%1 个</translation>
    </message>
</context>
<context>
    <name>attn::ui::SweepRunner</name>
    <message>
        <source>not enough memory for this sweep</source>
        <translation>内存不足，无法完成这次扫描</translation>
    </message>
</context>
<context>
    <name>attn::ui::SwitchesForm</name>
    <message>
        <source>τ = %1</source>
        <comment>the temperature&apos;s value</comment>
        <translation>τ = %1</translation>
    </message>
    <message>
        <source>Head &amp;split:</source>
        <comment>how Q, K, V are cut into heads</comment>
        <translation>分头方式(&amp;S)：</translation>
    </message>
    <message>
        <source>S&amp;caling:</source>
        <comment>what QKᵀ is divided by</comment>
        <translation>缩放(&amp;C)：</translation>
    </message>
    <message>
        <source>Te&amp;mperature:</source>
        <comment>softmax temperature τ</comment>
        <translation>温度(&amp;M)：</translation>
    </message>
    <message>
        <source>Reset</source>
        <comment>set the temperature back to 1</comment>
        <translation>重置</translation>
    </message>
    <message>
        <source>Ca&amp;usal mask</source>
        <comment>decoder mask: no looking ahead</comment>
        <translation>因果掩码(&amp;U)</translation>
    </message>
    <message>
        <source>Mask &lt;pad&gt; &amp;keys</source>
        <translation>掩盖 &lt;pad&gt; 的键(&amp;K)</translation>
    </message>
    <message>
        <source>Mask &amp;fill:</source>
        <comment>the value written into masked logits</comment>
        <translation>掩码填充值(&amp;F)：</translation>
    </message>
    <message>
        <source>Mask s&amp;tage:</source>
        <comment>before or after softmax</comment>
        <translation>掩码时机(&amp;T)：</translation>
    </message>
    <message>
        <source>Softmax &amp;over:</source>
        <comment>the softmax axis (dim)</comment>
        <translation>softmax 维度(&amp;O)：</translation>
    </message>
</context>
<context>
    <name>attn::ui::TodaysForm</name>
    <message>
        <source>The RoPE base θ must be a positive number, not “%1”.</source>
        <translation>RoPE 的底数 θ 必须是正数，而不是“%1”。</translation>
    </message>
    <message>
        <source>The soft-capping c must be a positive number, not “%1”.</source>
        <translation>软截断的 c 必须是正数，而不是“%1”。</translation>
    </message>
    <message>
        <source>The sink logit must be a finite number, not “%1”.</source>
        <translation>汇聚点的 logit 必须是有限数，而不是“%1”。</translation>
    </message>
    <message>
        <source>A window of %1 keys is outside 1 to %2, so %3 is used.</source>
        <translation>%1 个键的窗口超出 1 到 %2 的范围，因此改用 %3。</translation>
    </message>
    <message>
        <source>%1 K/V heads do not divide the %2 heads, so the nearest divisor, %3, is used.</source>
        <comment>the K/V heads must divide the heads</comment>
        <translation>键/值头数 %1 不能整除头数 %2，因此改用最接近的约数 %3。</translation>
    </message>
    <message>
        <source>RoPE rotates pairs of features and d_k = %1 is odd, so the positions are none.</source>
        <translation>RoPE 把特征两两配对旋转，而 d_k = %1 是奇数，因此位置编码设为“无”。</translation>
    </message>
    <message>
        <source>As many as the heads (%1)</source>
        <comment>K/V heads: 0, the default</comment>
        <translation>与头数相同（%1）</translation>
    </message>
    <message>
        <source>RoPE rotates pairs of features: d_k (%1) must be even.</source>
        <translation>RoPE 把特征两两配对旋转：d_k（%1）必须是偶数。</translation>
    </message>
    <message>
        <source>With ALiBi the positions are none, as in BLOOM; you may set them back.</source>
        <translation>打开 ALiBi 后位置编码为“无”，与 BLOOM 相同；你也可以把它设回去。</translation>
    </message>
    <message>
        <source>Today&apos;s models</source>
        <comment>group box: the switches models added since 2017</comment>
        <translation>当今模型</translation>
    </message>
    <message>
        <source>K/&amp;V heads:</source>
        <comment>grouped-query attention: heads of K and V</comment>
        <translation>键/值头数(&amp;V)：</translation>
    </message>
    <message>
        <source>&amp;QK-norm (divide Q and K by their RMS)</source>
        <translation>QK-norm（Q 和 K 除以各自的 RMS）(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;Positions:</source>
        <comment>the positional encoding</comment>
        <translation>位置编码(&amp;P)：</translation>
    </message>
    <message>
        <source>&amp;RoPE θ:</source>
        <comment>the base of RoPE&apos;s frequencies; keep the symbol</comment>
        <translation>RoPE θ(&amp;R)：</translation>
    </message>
    <message>
        <source>A&amp;LiBi (linear bias −m·|i − j|)</source>
        <translation>ALiBi（线性偏置 −m·|i − j|）(&amp;L)</translation>
    </message>
    <message>
        <source>Soft-cappi&amp;ng c:</source>
        <comment>L = c·tanh(L/c)</comment>
        <translation>软截断 c(&amp;N)：</translation>
    </message>
    <message>
        <source>Sliding &amp;window W:</source>
        <comment>keys |i − j| &lt; W</comment>
        <translation>滑动窗口 W(&amp;W)：</translation>
    </message>
    <message>
        <source>Attention s&amp;ink s:</source>
        <comment>one more logit in every row</comment>
        <translation>注意力汇聚点 s(&amp;I)：</translation>
    </message>
</context>
<context>
    <name>attn::ui::TokenChips</name>
    <message>
        <source>batch B = %1 · length T = %2</source>
        <comment>B: the number of sequences (lines) in the batch; T: tokens per sequence, padding included</comment>
        <translation>批次 B = %1 · 序列长 T = %2</translation>
    </message>
    <message>
        <source>Tokens not shown: %1</source>
        <comment>chip at the end of a long sequence; %1 is how many</comment>
        <translation>未显示的词元：%1 个</translation>
    </message>
    <message>
        <source>padding: its key is masked</source>
        <comment>tooltip of a &lt;pad&gt; token chip</comment>
        <translation>填充：它的键已被掩盖</translation>
    </message>
    <message>
        <source>padding: its key is not masked, so queries attend to it</source>
        <comment>tooltip of a &lt;pad&gt; token chip</comment>
        <translation>填充：它的键没有被掩盖，查询会关注它</translation>
    </message>
    <message>
        <source>“%1”: sequence %2, token %3</source>
        <comment>tooltip of a token chip; positions count from 0</comment>
        <translation>“%1”：序列 %2，词元 %3</translation>
    </message>
    <message>
        <source>+%1 more</source>
        <comment>tokens not shown as chips</comment>
        <translation>还有 %1 个</translation>
    </message>
    <message>
        <source>keys and values: length T_k = %1</source>
        <comment>T_k: tokens of the second text, padding included</comment>
        <translation>键和值：序列长 T_k = %1</translation>
    </message>
    <message>
        <source>Tokens of the keys and values</source>
        <comment>for screen readers</comment>
        <translation>键和值的词元</translation>
    </message>
    <message>
        <source>Tokens</source>
        <comment>for screen readers</comment>
        <translation>词元</translation>
    </message>
</context>
<context>
    <name>attn::ui::TokenFlow</name>
    <message>
        <source>%1 (position %2): the newest token read it with weight %3</source>
        <translation>%1（位置 %2）：最新词元读它的权重为 %3</translation>
    </message>
    <message>
        <source>%1 (position %2)</source>
        <translation>%1（位置 %2）</translation>
    </message>
</context>
<context>
    <name>attn::ui::TraceTiles</name>
    <message>
        <source>X — layer %1&apos;s input after ln_1</source>
        <translation>X —— 第 %1 层经过 ln_1 后的输入</translation>
    </message>
    <message>
        <source>; h_%1: the residual stream after layer %2</source>
        <translation>；h_%1：第 %2 层之后的残差流</translation>
    </message>
    <message>
        <source>; c_attn&apos;s columns %1–%2</source>
        <translation>；c_attn 的第 %1–%2 列</translation>
    </message>
    <message>
        <source>output — through c_proj</source>
        <translation>输出 —— 经过 c_proj</translation>
    </message>
    <message>
        <source>drawn: [0]; layer %1 adds it to its residual stream: h_%2 = h_%1 + out + MLP(…)</source>
        <translation>图中为 [0]；第 %1 层把它加到残差流上：h_%2 = h_%1 + out + MLP(…)</translation>
    </message>
    <message>
        <source>X — layer %1&apos;s input after input_layernorm</source>
        <translation>X —— 第 %1 层经过 input_layernorm 后的输入</translation>
    </message>
    <message>
        <source>; K/V head %1, shared by heads %2–%3</source>
        <translation>；键/值头 %1，由头 %2–%3 共用</translation>
    </message>
    <message>
        <source>; rotated by its position (RoPE)</source>
        <translation>；按位置旋转（RoPE）</translation>
    </message>
    <message>
        <source>; not rotated (RoPE off)</source>
        <translation>；未旋转（RoPE 已关闭）</translation>
    </message>
    <message>
        <source>output — through o_proj</source>
        <translation>输出 —— 经过 o_proj</translation>
    </message>
    <message>
        <source>X — layer %1&apos;s input</source>
        <translation>X —— 第 %1 层的输入</translation>
    </message>
    <message>
        <source>; h_%1: layer %2&apos;s output, already normalised (BERT normalises after each block, not before)</source>
        <translation>；h_%1：第 %2 层的输出，已经归一化（BERT 在每个模块之后归一化，而不是之前）</translation>
    </message>
    <message>
        <source>; %1&apos;s output columns %2–%3</source>
        <translation>；%1 输出的第 %2–%3 列</translation>
    </message>
    <message>
        <source>output — through attention.output.dense</source>
        <translation>输出 —— 经过 attention.output.dense</translation>
    </message>
    <message>
        <source>drawn: [0]; layer %1 adds it to its input and normalises: LayerNorm(h_%1 + out), then the MLP</source>
        <translation>图中为 [0]；第 %1 层把它加到输入上再归一化：LayerNorm(h_%1 + out)，然后是 MLP</translation>
    </message>
</context>
<context>
    <name>attn::ui::ViewToolBar</name>
    <message>
        <source>%1: %2…</source>
        <comment>sequence number: first words</comment>
        <translation>%1：%2…</translation>
    </message>
    <message>
        <source>View</source>
        <translation>视图</translation>
    </message>
    <message>
        <source>Sequence:</source>
        <translation>序列：</translation>
    </message>
    <message>
        <source>Which line of the batch the heatmaps show</source>
        <translation>热力图显示的是批次中的哪一行（哪条序列）</translation>
    </message>
    <message>
        <source>Colour scale of the heatmaps</source>
        <translation>热力图的色图</translation>
    </message>
</context>
<context>
    <name>attn::ui::WindowMenus</name>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Colormap</source>
        <translation>色图(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Lab</source>
        <translation>实验(&amp;L)</translation>
    </message>
</context>
</TS>
