/**
 * Where a queued message lands, in the terms of pi's agent loop and of a held call: the Agent delivers
 * steering messages before its next model call (as many as its steering mode allows per call), follow-ups
 * only when it would otherwise stop, and messages held for the next turn go with the next prompt. A steer
 * made while a call is held joins that call (see SessionAgent).
 */
export type Landing = "thisCall" | "nextCall" | "laterCall" | "whenItWouldStop" | "nextRun" | "nextPrompt";

export type LandingQueue = "steering" | "followUp" | "nextTurn";

export interface RunMoment {
  running: boolean;
  /** A model call is held before it is sent. */
  held: boolean;
  /** How many steering messages the Agent delivers before one call. */
  steeringPerCall: number;
}

export function landingOf(queue: LandingQueue, index: number, moment: RunMoment): Landing {
  if (queue === "nextTurn") return "nextPrompt";
  if (queue === "followUp") return "whenItWouldStop";
  if (index >= moment.steeringPerCall) return "laterCall";
  if (!moment.running) return "nextRun";
  return moment.held ? "thisCall" : "nextCall";
}

export const LANDING_TEXT: Record<Landing, string> = {
  thisCall: "joins the held call when you continue",
  nextCall: "goes with the next model call",
  laterCall: "goes with a later call (one steering message per call)",
  whenItWouldStop: "goes when the agent would otherwise stop",
  nextRun: "goes with the first call of the next run",
  nextPrompt: "goes with your next prompt",
};
