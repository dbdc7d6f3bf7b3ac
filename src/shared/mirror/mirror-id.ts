/** The offline models' provider id, apart from the provider itself so that naming it costs the page nothing. */
export const MIRROR_PROVIDER_ID = "mirror";
/** The offline model that streams without pacing: a chosen speed does not apply to it. */
export const MIRROR_UNPACED_ID = "mirror-instant";

/** Whether a model is one of the offline models that stream at a pace a person may choose. */
export function takesMirrorSpeed(model: { provider: string; id: string }): boolean {
  return model.provider === MIRROR_PROVIDER_ID && model.id !== MIRROR_UNPACED_ID;
}
