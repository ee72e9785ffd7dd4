// Tests that hold on any date (issue 46). A test that books picks its day from
// tests/helpers/days.ts, which asks the service's rules (closures, the weekday's hours, the
// horizon, the notice) and skips planned maintenance. A day picked by a bare offset from today
// works until the day a closure, the demo's next month among them, falls on it.
//
// `no-day-offset` refuses `addDays(day, n)` in tests unless n is zero or negative (a literal
// or a negation): a day in the past is history written straight into the database, which no
// rule checks. The helper and its own test are the one place where offsets are the point.

function pastOrToday(offset) {
  if (offset.type === 'Literal') return typeof offset.value === 'number' && offset.value <= 0;
  return offset.type === 'UnaryExpression' && offset.operator === '-';
}

const noDayOffset = {
  meta: {
    type: 'problem',
    docs: { description: 'A test takes a future day from tests/helpers/days.ts, not from an offset of today.' },
    schema: [],
    messages: {
      offset:
        'A day picked by the offset {{offset}} may fall in a closure or outside the hours on some date: take it from tests/helpers/days.ts (allowedDays, or openDays in an e2e spec).',
    },
  },
  create(context) {
    return {
      CallExpression(node) {
        const { callee } = node;
        const name = callee.type === 'Identifier' ? callee.name : callee.type === 'MemberExpression' && !callee.computed ? callee.property.name : null;
        const offset = node.arguments[1];
        if (name !== 'addDays' || !offset || pastOrToday(offset)) return;
        context.report({ node: offset, messageId: 'offset', data: { offset: context.sourceCode.getText(offset) } });
      },
    };
  },
};

export default { rules: { 'no-day-offset': noDayOffset } };
