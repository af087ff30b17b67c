// @ts-check
// The shapes of REST answers that are not the websocket protocol's, for the type check only:
// this module holds no code. The protocol's (the lobby, a view, a state...) are generated into
// messages.d.ts from the server's models. Import a type with `import("./types.js").Options`.

/** @typedef {import("./messages.js").Trick} Trick */

/**
 * A preset the server offers (GET /api/options).
 * @typedef {object} Preset
 * @property {string} name
 * @property {string} title
 * @property {number} min_players
 * @property {number} max_players
 * @property {number} default_players
 * @property {{name: string, swappable?: boolean}[]} hands
 * @property {boolean} toppings
 */

/**
 * The answer of GET /api/options.
 * @typedef {object} Options
 * @property {Preset[]} presets
 * @property {{name: string, text?: string}[]} toppings
 * @property {Record<string, {id: string, name: string}[]>} swaps
 * @property {Record<string, Record<string, string>>} [swap_text] what each swap-in round does, by id
 * @property {string[]} [bots]
 */

/**
 * A hand of a salad-record/2.
 * @typedef {object} RecordHand
 * @property {number} number
 * @property {string} round
 * @property {number} dealer
 * @property {string[][]} deal
 * @property {Trick[]} tricks
 * @property {number[] | null} [points]
 * @property {string | null} [trump]
 * @property {unknown} [passes]
 */

/**
 * A game record (salad-record/2) as the replay page reads it.
 * @typedef {object} GameRecord
 * @property {{name?: string}[]} players
 * @property {RecordHand[]} hands
 * @property {number[]} totals
 * @property {number[]} [winners]
 */

export {};
