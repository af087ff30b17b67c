// @ts-check
// Generated from salad.server.messages by `python -m salad.server.protocol_schema`:
// do not edit. The websocket's messages (docs/protocol.md, docs/protocol.schema.json).
// Its types are messages.d.ts, which only the type checker reads.

/** The keys a `state` leaves out when its connection already has them. */
export const KEPT = /** @type {const} */ (["table", "last_trick", "hand_rounds", "winners"]);
/** The keys of a `state`'s view it leaves out likewise. */
export const VIEW_KEPT = /** @type {const} */ (["tricks"]);
