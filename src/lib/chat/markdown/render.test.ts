import { describe, expect, it } from "vitest";
import { highlight } from "./highlight.ts";
import { createBlockRenderer, hasFencedCode } from "./render.ts";

const render = createBlockRenderer();

describe("createBlockRenderer", () => {
  it("gives one HTML string per top-level block, resolving references across blocks", () => {
    expect(render("Intro [docs] here.\n\n- one\n- two\n\n[docs]: https://pi.dev\n")).toEqual([
      '<p>Intro <a href="https://pi.dev">docs</a> here.</p>\n',
      "<ul>\n<li>one</li>\n<li>two</li>\n</ul>\n",
    ]);
  });

  it("shows raw HTML as the text it is, so no handler attribute ever reaches an HTML parser", () => {
    const blocks = render('Look: <img src="x" onerror="alert(1)"> and\n\n<script>alert(2)</script>');
    expect(blocks.join("")).not.toMatch(/<img|<script/);
    expect(blocks[0]).toBe("<p>Look: &lt;img src=&quot;x&quot; onerror=&quot;alert(1)&quot;&gt; and</p>\n");
    expect(blocks[1]).toBe("<p>&lt;script&gt;alert(2)&lt;/script&gt;</p>\n");
  });

  it("turns images into links instead of fetching them", () => {
    expect(render("![a chart](https://example.com/c.png)")).toEqual([
      '<p><a href="https://example.com/c.png">image: a chart</a></p>\n',
    ]);
  });

  it("wraps tables so that a wide one scrolls on its own", () => {
    const [table] = render("| a | b |\n|---|---|\n| 1 | 2 |");
    expect(table).toMatch(/^<div class="table-scroll"><table>\n<thead>/);
    expect(table).toContain("<td>1</td>");
  });

  it("labels code blocks with their language and escapes the code", () => {
    expect(render("```ts\nconst a = 1 < 2;\n```")).toEqual([
      '<figure class="code-block"><figcaption>ts</figcaption><pre><code class="language-ts">const a = 1 &lt; 2;\n</code></pre></figure>\n',
    ]);
    expect(render("```\nplain\n```")[0]).toContain("<figcaption>code</figcaption><pre><code>plain");
  });

  it("highlights known languages when given the highlighter, and leaves unknown ones plain", () => {
    const highlighted = createBlockRenderer(highlight);
    const [ts] = highlighted("```typescript\nconst a: number = 1; // one\n```");
    expect(ts).toContain('<span class="hljs-keyword">const</span>');
    expect(ts).toContain('<span class="hljs-comment">// one</span>');
    const [unknown] = highlighted("```klingon\nqapla'\n```");
    expect(unknown).toContain('<code class="language-klingon">qapla&#39;\n</code>');
  });
});

describe("hasFencedCode", () => {
  it("finds fences at the start of a line, also inside a quote", () => {
    expect(hasFencedCode("text\n```js\nx\n```")).toBe(true);
    expect(hasFencedCode("> ~~~\n> x")).toBe(true);
    expect(hasFencedCode("inline ``` is not a fence")).toBe(false);
  });
});
