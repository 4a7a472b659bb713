/** Issue 31: every transcript format is one file under kernel/transcript/formats/, behind one registry. */
import { describe, expect, it } from 'vitest';
import { FORMATS, TRANSCRIPT_FORMATS, detectFormat, isGeminiSession, readTranscript, transcriptFormat } from '../../../src/kernel/transcript/index.js';

describe('the transcript format registry', () => {
  it('holds each format once, in detection order, plain text last', () => {
    expect(FORMATS.map((f) => f.name)).toEqual(['gemini', 'codex', 'claude', 'openai', 'text']);
    expect([...FORMATS.map((f) => f.name)].sort()).toEqual([...TRANSCRIPT_FORMATS].sort());
    for (const name of TRANSCRIPT_FORMATS) expect(transcriptFormat(name).name).toBe(name);
  });

  it("each format claims its own record shape, and a Codex record with Claude Code's keys is Codex (order decides)", () => {
    const codex = { type: 'response_item', payload: {}, sessionId: 'x' };
    expect(FORMATS.filter((f) => f.detect(codex)).map((f) => f.name)).toEqual(['codex']);
    expect(transcriptFormat('claude').detect({ type: 'user', message: {} })).toBe(true);
    expect(transcriptFormat('gemini').detect({ sessionId: 's', projectHash: 'h' })).toBe(true);
    expect(transcriptFormat('openai').detect({ role: 'user' })).toBe(true);
    expect(transcriptFormat('text').detect({ role: 'user' })).toBe(false);
    expect(detectFormat(JSON.stringify({ type: 'user', sessionId: 's', message: { role: 'user', content: 'hi' } }))).toBe('claude');
  });

  it('isGeminiSession: a project hash, or Gemini messages without OpenAI roles', () => {
    expect([
      { projectHash: 'h', messages: [] },
      { messages: [{ type: 'gemini', content: 'x' }] },
      { messages: [{ type: 'gemini', role: 'assistant', content: 'x' }] },
      { projectHash: 'h' },
      [],
    ].map(isGeminiSession)).toEqual([true, true, false, false, false]);
  });

  it('reads and extracts through the format named', () => {
    const text = `${JSON.stringify({ type: 'user', sessionId: 's', cwd: '/w', message: { role: 'user', content: 'Add rate limiting to the API' } })}\n`;
    const t = readTranscript(text);
    expect(t.format).toBe('claude');
    expect(transcriptFormat('claude').extract(t).goal).toEqual(['Add rate limiting to the API']);
  });
});
