/** TODO or BLOCKER as a word in a body: a light module, so a scan needs no scoring code to note it. */
const MARKERS = /\b(?:TODO|BLOCKER)\b/;

/** TODO or BLOCKER as a word. */
export function hasMarkers(body: string): boolean {
  return (body.includes('TODO') || body.includes('BLOCKER')) && MARKERS.test(body);
}
