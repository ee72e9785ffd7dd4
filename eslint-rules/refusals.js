// Refusals are catalogue keys (issue 46, decision 051). One rule, `keys`: a text for a person
// is never written in the code where a refusal or a validation message is made, so that every
// one has its Italian and its English in the catalogue. Refused as a message:
//
// - a string or a template literal given to `new AppError(status, …)`, `badRequest(…)`,
//   `forbidden(…)`, `notFound(…)`, `conflict(…)` (src/server/http/errors.ts): they take a
//   `Testo`, `testo('key', values)`;
// - a string or a template literal as a zod message: `z.string('x')`, `.min(1, 'x')`,
//   `.refine(fn, 'x')`, `{ message: 'x' }`, `{ error: 'x' }`, `ctx.addIssue({ message: 'x' })`.
//   The schemas take `msg('key')` (shared/schemas/message.ts).

/** Helpers whose first argument is the refusal's text. */
const HELPERS = new Set(['badRequest', 'forbidden', 'notFound', 'conflict']);
/** zod checks whose first argument is a value: their message is the second. */
const VALUE_CHECKS = new Set(['min', 'max', 'length', 'gt', 'gte', 'lt', 'lte', 'multipleOf', 'regex', 'startsWith', 'endsWith', 'includes', 'refine', 'superRefine', 'check']);
/** zod checks that take only a message. */
const MESSAGE_CHECKS = new Set(['email', 'url', 'uuid', 'int', 'positive', 'negative', 'nonnegative', 'nonpositive', 'nonempty', 'finite', 'safe', 'datetime', 'date', 'time', 'trim']);
/** zod's constructors whose first argument is a shape or values (`z.object(shape, msg)`): the rest take a message first. */
const SHAPED = new Set(['object', 'strictObject', 'looseObject', 'array', 'enum', 'literal', 'union', 'record', 'tuple', 'instanceof', 'discriminatedUnion']);

const isText = (node) =>
  !!node &&
  ((node.type === 'Literal' && typeof node.value === 'string') ||
    node.type === 'TemplateLiteral' ||
    (node.type === 'ConditionalExpression' && (isText(node.consequent) || isText(node.alternate))));

/** The arguments of a call that are messages, by what is called. */
function messageArguments(node) {
  const callee = node.callee;
  if (node.type === 'NewExpression') return callee.type === 'Identifier' && callee.name === 'AppError' ? node.arguments.slice(1, 2) : [];
  if (callee.type === 'Identifier') return HELPERS.has(callee.name) ? node.arguments.slice(0, 1) : [];
  if (callee.type !== 'MemberExpression' || callee.property.type !== 'Identifier') return [];
  const name = callee.property.name;
  if (name === 'addIssue') return node.arguments;
  if (callee.object.type === 'Identifier' && callee.object.name === 'z') return node.arguments.slice(SHAPED.has(name) ? 1 : 0);
  if (VALUE_CHECKS.has(name)) return node.arguments.slice(1);
  if (MESSAGE_CHECKS.has(name)) return node.arguments;
  return [];
}

/** A message written as text: the argument itself, or its `message` / `error` property. */
function writtenTexts(argument) {
  if (isText(argument)) return [argument];
  if (argument.type !== 'ObjectExpression') return [];
  return argument.properties
    .filter((p) => p.type === 'Property' && p.key.type === 'Identifier' && (p.key.name === 'message' || p.key.name === 'error') && isText(p.value))
    .map((p) => p.value);
}

const keys = {
  meta: {
    type: 'problem',
    docs: { description: 'Refusals and validation messages are catalogue keys, never text written in the code (decision 051).' },
    schema: [],
    messages: {
      text: 'A refusal or a validation message is a catalogue key: use testo(\'key\', values) (AppError and its helpers) or msg(\'key\') (zod), not written text.',
    },
  },
  create(context) {
    const check = (node) => {
      for (const argument of messageArguments(node)) {
        for (const text of writtenTexts(argument)) context.report({ node: text, messageId: 'text' });
      }
    };
    return { CallExpression: check, NewExpression: check };
  },
};

export default { rules: { keys } };
