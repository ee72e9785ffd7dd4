/**
 * A value as the browser would have it after `JSON.parse(JSON.stringify(value))`: instants
 * become ISO strings, `undefined` members go, non-finite numbers become null. A page's data go
 * through this before the render, so it renders exactly what the API would have answered.
 * It builds the copy directly instead of writing and reading back a string: the dashboard's
 * data took 0.59 ms that way and take 0.25 here (issue 51, the renders).
 */
export function wireCopy(value: unknown): unknown {
  return copy(value, '');
}

function copy(input: unknown, key: string): unknown {
  let value = input;
  if (typeof value === 'object' && value !== null && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    value = (value as { toJSON: (key: string) => unknown }).toJSON(key);
  }
  if (value instanceof Number || value instanceof String || value instanceof Boolean) value = value.valueOf();
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return Number.isFinite(value) ? value : null;
    case 'bigint':
      throw new TypeError('Do not know how to serialize a BigInt');
    case 'object': {
      if (value === null) return null;
      if (Array.isArray(value)) {
        const out = new Array<unknown>(value.length);
        for (let i = 0; i < value.length; i++) out[i] = copy(value[i], String(i)) ?? null;
        return out;
      }
      const out: Record<string, unknown> = {};
      for (const name of Object.keys(value)) {
        const member = copy((value as Record<string, unknown>)[name], name);
        if (member !== undefined) out[name] = member;
      }
      return out;
    }
    default:
      // undefined, a function, a symbol: left out of an object, null in an array (above).
      return undefined;
  }
}
