// The agent's slices give the page back as every other slice of work does (the page's mechanics live in ui).
export { yieldToPage, type Yield } from "../ui/yield-to-page.ts";
