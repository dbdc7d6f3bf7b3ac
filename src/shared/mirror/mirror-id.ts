/** The offline models' provider id, apart from the provider itself so that naming it costs the page nothing. */
export const MIRROR_PROVIDER_ID = "mirror";
