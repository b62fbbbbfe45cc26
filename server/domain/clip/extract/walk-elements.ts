/**
 * Visits the elements under `root` depth first, in document order, without recursion (pages can
 * nest deeply). `visit` gets each element and what it returned for the element's parent
 * (`rootState` for the children of `root`); it returns the state for the element's own children,
 * or null to leave them out.
 */
export function walkElements<State>(
  root: Element,
  rootState: State,
  visit: (element: Element, parentState: State) => State | null,
): void {
  // The element whose children are being walked is last; `states` runs alongside.
  const path: Element[] = [root];
  const states: State[] = [rootState];
  let next = root.firstElementChild;
  while (true) {
    if (next) {
      const state = visit(next, states[states.length - 1] as State);
      if (state === null) {
        next = next.nextElementSibling;
      } else {
        path.push(next);
        states.push(state);
        next = next.firstElementChild;
      }
      continue;
    }
    if (path.length === 1) return;
    states.pop();
    next = (path.pop() as Element).nextElementSibling;
  }
}
