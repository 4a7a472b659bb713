/**
 * Every text a model request showed the model, for the API stand-ins: strings, and each block's string
 * fields named in `keys` (in that order), walking into `content`; joined by newlines.
 */
export function shownText(values: readonly unknown[], keys: readonly string[] = ['text']): string {
  const parts: string[] = [];
  const walk = (value: unknown): void => {
    if (typeof value === 'string') parts.push(value);
    else if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === 'object') {
      const v = value as Record<string, unknown>;
      for (const key of keys) {
        const text = v[key];
        if (typeof text === 'string') parts.push(text);
      }
      if (v.content !== undefined) walk(v.content);
    }
  };
  values.forEach(walk);
  return parts.join('\n');
}
