import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { convertLocomo, findLocomo, loadLocomo, locomoDate, locomoEvidence } from '../../bench/conversations.js';

const conversation = {
  speaker_a: 'Ann',
  speaker_b: 'Bo',
  session_1_date_time: '1:56 pm on 8 May, 2023',
  session_1: [
    { speaker: 'Ann', dia_id: 'D1:1', text: 'I adopted a cat.' },
    { speaker: 'Bo', dia_id: 'D1:2', text: 'Lovely!', blip_caption: 'a photo of a cat' },
  ],
  session_2_date_time: '12:09 am on 13 September, 2023',
  session_2: [{ speaker: 'Bo', dia_id: 'D2:1', text: 'I ran a marathon.' }],
  session_3_date_time: '9:00 am on 1 June, 2024',
  qa: [
    { question: 'What did Ann adopt?', answer: 'a cat', evidence: ['D1:1'], category: 4 },
    { question: 'What did they do?', answer: 'x', evidence: ['D1:2; D2:01'], category: 1 },
    { question: 'Adversarial?', adversarial_answer: 'x', evidence: ['D1:1'], category: 5 },
    { question: 'Unknown turn', answer: 'x', evidence: ['D9:9'], category: 2 },
  ],
};

describe('LoCoMo conversion (bench/conversations.ts)', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it('reads session dates, pm and midnight included', () => {
    expect(locomoDate('1:56 pm on 8 May, 2023')).toBe('2023-05-08T13:56:00Z');
    expect(locomoDate('12:09 am on 13 September, 2023')).toBe('2023-09-13T00:09:00Z');
    expect(locomoDate('12:30 pm on 1 June, 2024')).toBe('2024-06-01T12:30:00Z');
    expect(locomoDate('sometime')).toBeUndefined();
  });

  it('reads evidence ids written loosely', () => {
    expect(locomoEvidence(['D:11:26', 'D8:6; D9:17', 'D30:05', 'D3:12', 'D3:12'])).toEqual(['D11:26', 'D8:6', 'D9:17', 'D30:5', 'D3:12']);
  });

  it('makes one file per session and leaves out adversarial questions and ids naming no turn', () => {
    const { files, questions, unknownEvidence } = convertLocomo('7', conversation);
    expect([...files.keys()]).toEqual(['sessions/session-1.md', 'sessions/session-2.md']);
    expect(files.get('sessions/session-1.md')).toBe(
      '---\nname: "Chat session 1"\ndescription: "I adopted a cat."\ntype: project\nkind: session\nupdated: 2023-05-08T13:56:00Z\n---\n\n**Ann:** I adopted a cat.\n\n**Bo:** Lovely! [shares a photo: a photo of a cat]\n',
    );
    expect(questions.map((q) => [q.id, q.category, q.type, q.files])).toEqual([
      ['7#0', 4, 'single-hop', ['sessions/session-1.md']],
      ['7#1', 1, 'multi-hop', ['sessions/session-1.md', 'sessions/session-2.md']],
    ]);
    expect(questions[1].turns).toEqual([
      { file: 'sessions/session-1.md', line: '**Bo:** Lovely! [shares a photo: a photo of a cat]' },
      { file: 'sessions/session-2.md', line: '**Bo:** I ran a marathon.' },
    ]);
    expect(unknownEvidence).toBe(1);
  });

  it('writes each conversation as its own memory directory, and finds none where there is none', () => {
    const root = mkdtempSync(join(tmpdir(), 'memctx-locomo-'));
    dirs.push(root);
    mkdirSync(join(root, 'data'));
    writeFileSync(join(root, 'data', '7.json'), JSON.stringify(conversation));
    const [conv] = loadLocomo(join(root, 'data'), join(root, 'work'));
    expect(conv.id).toBe('7');
    expect(conv.files).toBe(2);
    expect(readFileSync(join(conv.dir, 'sessions/session-2.md'), 'utf8')).toContain('**Bo:** I ran a marathon.\n');
    expect(findLocomo({ MEMCTX_LOCOMO: join(root, 'data') })).toBe(join(root, 'data'));
    expect(findLocomo({ MEMCTX_LOCOMO: join(root, 'work') })).toBeUndefined();
  });
});
