// flush/source-summary.ts: one line saying what a changed source file is, from its doc comment and names.
import { describe, expect, it } from 'vitest';
import { summarizeSource } from '../../../src/commands/flush/source-summary.js';

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
