/**
 * The ports of one e2e run, derived from E2E_PORT so that runs side by side never collide. The app with
 * its proxy (`npm start`) is on PORT; everything else is a few ports above it.
 */
export const PORT = Number(process.env.E2E_PORT) || 4317;
/** The loopback OpenAI-compatible server, standing in for Ollama. */
export const FIXTURE_PORT = Number(process.env.E2E_FIXTURE_PORT) || PORT + 1;
/** The built app on a plain static server, under /playground/: an origin the standalone proxy admits. */
export const STATIC_PORT = PORT + 2;
/** `npm run proxy`, admitting STATIC_PORT's origin. */
export const PROXY_PORT = PORT + 3;
/** Free for a test's own proxy (one it stops mid-session), and unused otherwise: nothing answers there. */
export const SPARE_PORT = PORT + 4;
/** The same static files as another origin, one the proxy does not admit. */
export const OTHER_STATIC_PORT = PORT + 5;
/** The OpenAI-compatible fixture a real pi coding agent talks to (a journey starts its own, to read its requests). */
export const PI_FIXTURE_PORT = PORT + 6;
/** A second playground a journey starts itself (one that is down when pi starts, say). */
export const LATE_PLAYGROUND_PORT = PORT + 7;

export const STATIC_BASE = "/playground/";
export const staticUrl = (port = STATIC_PORT) => `http://127.0.0.1:${port}${STATIC_BASE}`;
/** The standalone proxy's token (PROXY_TOKEN), as its operator would paste it into the page. */
export const PROXY_TOKEN = "e2e-proxy-token-0123456789";
export const FAKE_OPENAI_KEY = "sk-e2e-fake-key-never-leaves-the-server";
/** The pairing token of live pi sessions (PI_PLAYGROUND_TOKEN), set for the app so pi can be told it. */
export const LIVE_TOKEN = "e2e-live-pairing-token-0123456789";
