import { loadValidators } from "./lib/messages/validators.ts";

// In the page the stores load the validators as they open; unit tests read records directly too.
await loadValidators();
