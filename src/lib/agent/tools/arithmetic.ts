/**
 * A small arithmetic evaluator for the `calculate` tool: numbers, + - * / % ^, unary minus and
 * parentheses. A hand-written parser, because model-provided text must never reach `eval`.
 */
export function evaluateArithmetic(expression: string): number {
  const parser = new Parser(expression);
  const value = parser.parseExpression();
  parser.expectEnd();
  if (!Number.isFinite(value)) throw new Error(`"${expression}" has no finite value (division by zero?)`);
  return value;
}

const MAX_LENGTH = 500;

class Parser {
  #position = 0;
  readonly #text: string;

  constructor(text: string) {
    if (text.length > MAX_LENGTH) throw new Error(`expression is longer than ${MAX_LENGTH} characters`);
    this.#text = text;
  }

  parseExpression(): number {
    let value = this.#parseTerm();
    for (;;) {
      const op = this.#peek();
      if (op !== "+" && op !== "-") return value;
      this.#position++;
      const right = this.#parseTerm();
      value = op === "+" ? value + right : value - right;
    }
  }

  expectEnd(): void {
    this.#skipSpace();
    if (this.#position < this.#text.length) {
      throw new Error(`unexpected "${this.#text[this.#position]}" at position ${this.#position + 1}`);
    }
  }

  #parseTerm(): number {
    let value = this.#parsePower();
    for (;;) {
      const op = this.#peek();
      if (op !== "*" && op !== "/" && op !== "%") return value;
      this.#position++;
      const right = this.#parsePower();
      value = op === "*" ? value * right : op === "/" ? value / right : value % right;
    }
  }

  #parsePower(): number {
    const base = this.#parseUnary();
    if (this.#peek() !== "^") return base;
    this.#position++;
    // Right-associative: 2^3^2 is 2^(3^2).
    return base ** this.#parsePower();
  }

  #parseUnary(): number {
    const op = this.#peek();
    if (op === "-" || op === "+") {
      this.#position++;
      const value = this.#parseUnary();
      return op === "-" ? -value : value;
    }
    return this.#parsePrimary();
  }

  #parsePrimary(): number {
    const next = this.#peek();
    if (next === "(") {
      this.#position++;
      const value = this.parseExpression();
      if (this.#peek() !== ")") throw new Error(`missing ")" at position ${this.#position + 1}`);
      this.#position++;
      return value;
    }
    const match = /^\d+(?:\.\d+)?(?:e[-+]?\d+)?|^\.\d+/i.exec(this.#text.slice(this.#position));
    if (!match) {
      throw new Error(
        next === undefined
          ? "expression ends too early"
          : `unexpected "${next}" at position ${this.#position + 1}`,
      );
    }
    this.#position += match[0].length;
    return Number(match[0]);
  }

  #peek(): string | undefined {
    this.#skipSpace();
    return this.#text[this.#position];
  }

  #skipSpace(): void {
    while (this.#position < this.#text.length && /\s/.test(this.#text[this.#position] as string))
      this.#position++;
  }
}

/** Render a result without floating-point noise: 0.1 + 0.2 shows as 0.3. */
export function formatNumber(value: number): string {
  return Number.parseFloat(value.toPrecision(12)).toString();
}
