import { describe, expect, it } from 'vitest';
import { extractFromTranscript, markedLines, type ExtractItem } from '../../../src/commands/flush/extract.js';
import { summarizeSource } from '../../../src/commands/flush/source-summary.js';
import { readTranscript } from '../../../src/kernel/transcript/index.js';

describe('marked lines', () => {
  it('finds markers in their common spellings, with the text after them', () => {
    const text = [
      'DECISION: use RS256',
      '- **Decision:** keep cookies for now',
      '**Blocker**: staging is down',
      '> TODO: rotate keys',
      '1. Next steps: ship it',
      'Note: not a marker',
      'GOAL: finish auth',
      'Done: login works',
    ].join('\n');
    expect(markedLines(text)).toEqual([
      { marker: 'decisions', items: ['use RS256'] },
      { marker: 'decisions', items: ['keep cookies for now'] },
      { marker: 'blockers', items: ['staging is down'] },
      { marker: 'todo', items: ['rotate keys'] },
      { marker: 'next', items: ['ship it'] },
      { marker: 'goal', items: ['finish auth'] },
      { marker: 'progress', items: ['login works'] },
    ]);
  });

  it('a marker with nothing after it takes the list that follows', () => {
    expect(markedLines('Next steps:\n\n- one\n2. two\n* [ ] three\n\nafter')).toEqual([{ marker: 'next', items: ['one', 'two', 'three'] }]);
    expect(markedLines('Blockers:\nnothing listed')).toEqual([]);
  });

  it('ignores markers inside fenced code', () => {
    expect(markedLines('```ts\n// TODO: not this\n```\nTODO: this')).toEqual([{ marker: 'todo', items: ['this'] }]);
  });
});

describe('extractFromTranscript', () => {
  const item = (role: string, text: string, extra: Partial<ExtractItem> = {}): ExtractItem => ({ role: role as ExtractItem['role'], kind: 'message', text, ...extra });

  it('keeps the first real request, every decision and blocker, TODOs and the last Next steps', () => {
    const out = extractFromTranscript([
      item('user', '<command-name>/model</command-name>'),
      item('user', 'Caveat: local commands'),
      item('user', '  Fix the flaky login test\nit fails on CI'),
      item('assistant', 'DECISION: retry once\nNext steps:\n- old step'),
      item('tool', 'DECISION: from tool output', { kind: 'tool_result' }),
      item('assistant', 'BLOCKER: sidechain', { sidechain: true }),
      item('assistant', 'TODO: add a timeout\nDECISION: retry once\nNext steps:\n- new step'),
      item('user', 'BLOCKER: CI runner is slow'),
    ]);
    expect(out).toEqual({
      goal: [],
      progress: [],
      decisions: ['retry once'],
      blockers: ['CI runner is slow'],
      nextSteps: ['add a timeout', 'new step'],
      request: 'Fix the flaky login test',
    });
  });

  it('reads items from each transcript format through the readers', () => {
    const openai = JSON.stringify({ messages: [{ role: 'user', content: 'Speed up search' }, { role: 'assistant', content: 'DECISION: cache the index' }] });
    expect(extractFromTranscript(readTranscript(openai).items)).toMatchObject({ decisions: ['cache the index'], request: 'Speed up search' });
    const codex = [
      { type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Port the parser' }] } },
      { type: 'response_item', payload: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'BLOCKER: no grammar spec' }] } },
    ].map((o) => JSON.stringify(o)).join('\n');
    expect(extractFromTranscript(readTranscript(codex).items)).toMatchObject({ blockers: ['no grammar spec'], request: 'Port the parser' });
  });
});

describe('summarizeSource', () => {
  it('TypeScript: the first doc comment and top-level functions and classes, up to five', () => {
    const ts = '#!/usr/bin/env node\n// eslint-disable-next-line\n/**\n * Auth handler with JWT validation.\n * More text.\n */\nimport x from "y";\nexport function validateToken() {}\nexport default class Session {}\nexport const logout = async () => {};\nconst helper = (a: number): number => a;\n  function nested() {}\nexport async function* stream() {}\nfunction sixth() {}\n';
    expect(summarizeSource('src/auth.ts', ts)).toBe('Auth handler with JWT validation (validateToken, Session, logout, helper, stream)');
  });

  it('Python: the module docstring, defs and classes at column 0', () => {
    expect(summarizeSource('db.py', '#!/usr/bin/env python\n"""Database migrations.\n\nLonger text."""\nimport os\n\nclass Runner:\n    def method(self):\n        pass\n\nasync def migrate():\n    pass\n')).toBe('Database migrations (Runner, migrate)');
    expect(summarizeSource('m.py', '# -*- coding: utf-8 -*-\ndef a():\n    pass\n')).toBe('a');
  });

  it('Go, Rust, Ruby, shell and Markdown', () => {
    expect(summarizeSource('auth.go', '// Package auth checks tokens.\npackage auth\n\nfunc Check() {}\nfunc (s *Server) Serve() {}\ntype Server struct{}\n')).toBe('Package auth checks tokens (Check, Serve, Server)');
    expect(summarizeSource('lib.rs', '//! Rate limiter.\n\npub struct Bucket;\npub(crate) fn take() {}\nimpl Bucket {\n    fn inner() {}\n}\n')).toBe('Rate limiter (Bucket, take)');
    expect(summarizeSource('app.rb', '# Billing jobs\nmodule Billing\n  class Job\n    def run; end\n  end\nend\n')).toBe('Billing jobs (Billing, Job)');
    expect(summarizeSource('deploy.sh', '#!/bin/sh\n# Deploy to staging\nset -e\nbuild() {\n  :\n}\nfunction push {\n :\n}\n')).toBe('Deploy to staging (build, push)');
    expect(summarizeSource('README.md', '---\ntitle: x\n---\n\n# memctx notes #\n\ntext\n')).toBe('memctx notes');
  });

  it('nothing to say: undefined; unknown extensions: undefined', () => {
    expect(summarizeSource('empty.ts', '\n\n')).toBeUndefined();
    expect(summarizeSource('data.csv', 'a,b\n')).toBeUndefined();
    expect(summarizeSource('license.js', '/* Copyright 2026 Someone. MIT License. */\nvar a = 1;\n')).toBeUndefined();
  });
});
