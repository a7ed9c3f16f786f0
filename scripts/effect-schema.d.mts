/** The validator's source (src/effects/schema-validate.js) made from schema/effect.schema.json as it is now. */
export function compileEffectSchema(): string;
