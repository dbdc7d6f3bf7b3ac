import { loadMessageKinds } from "./lib/messages/kinds/loaded.ts";
import { loadValidators } from "./lib/messages/validators.ts";

// In the page the validators and the message kinds load while storage opens; unit tests read records and
// convert facts directly too.
await Promise.all([loadValidators(), loadMessageKinds()]);
