/** The environment the proxy is configured from (`process.env`, or a test's own). */
export type ServerEnv = Readonly<Record<string, string | undefined>>;
