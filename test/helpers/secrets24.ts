/**
 * 24 test secrets, one of each shape issue 20 names (made up, in each service's documented format;
 * built by concatenation so no scanner mistakes this file for a leak). `value` is what must never reach a model.
 */
const j = (...parts: string[]) => parts.join('');

export const SECRETS_24: { shape: string; line: string; value: string }[] = [
  { shape: 'aws access key id', line: j('aws_access_key_id = AKIA', 'IOSFODNN7EXAMPLF'), value: j('AKIA', 'IOSFODNN7EXAMPLF') },
  { shape: 'aws secret access key', line: j('aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/', 'bPxRfiCYEXAMPLEKEZ'), value: j('wJalrXUtnFEMI/K7MDENG/', 'bPxRfiCYEXAMPLEKEZ') },
  { shape: 'github ghp_', line: j('github token ghp_', 'R7cQ1xW9yT3uI5oP2aS4dF6gH8jK0lZ3xC5v'), value: j('ghp_', 'R7cQ1xW9yT3uI5oP2aS4dF6gH8jK0lZ3xC5v') },
  { shape: 'github github_pat_', line: j('fine-grained: github_pat_', '11ABCDEFG0123456789abc_', 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456'), value: j('github_pat_', '11ABCDEFG0123456789abc_', 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456') },
  { shape: 'slack bot token', line: j('slack: xoxb-', '2301234567890-2301234567891-AbCdEfGhIjKlMnOpQrStUvWx'), value: j('xoxb-', '2301234567890-2301234567891-AbCdEfGhIjKlMnOpQrStUvWx') },
  { shape: 'slack webhook', line: j('alerts go to https://hooks.slack.com/services/', 'T01234ABCDE/B01234ABCDE/AbCdEfGhIjKlMnOpQrStUvWx'), value: j('T01234ABCDE/B01234ABCDE/', 'AbCdEfGhIjKlMnOpQrStUvWx') },
  { shape: 'openai sk-proj-', line: j('OPENAI key sk-proj-', 'Ab12Cd34Ef56Gh78Ij90Kl12Mn34Op56Qr78St90Uv12Wx34Yz56T3BlbkFJ', 'Ab12Cd34Ef56Gh78Ij90'), value: j('sk-proj-', 'Ab12Cd34Ef56Gh78Ij90Kl12Mn34Op56Qr78St90Uv12Wx34Yz56T3BlbkFJ') },
  { shape: 'anthropic sk-ant-', line: j('claude key sk-ant-api03-', 'Ab12Cd34Ef56Gh78Ij90Kl12Mn34Op56Qr78St90Uv12Wx34Yz56Ab12Cd34Ef56Gh78Ij90Kl12Mn34Op56Qr78St90Uv-AbCdEfAA'), value: j('sk-ant-api03-', 'Ab12Cd34Ef56Gh78Ij90Kl12Mn34Op56Qr78St90') },
  { shape: 'stripe sk_live_', line: j('billing uses sk_live_', '4eC39HqLyjWDarjtT1zdp7dc'), value: j('sk_live_', '4eC39HqLyjWDarjtT1zdp7dc') },
  { shape: 'google AIza', line: j('maps key AIza', 'SyA1b2C3d4E5f6G7h8I9j0KlMnOpQrStUvW'), value: j('AIza', 'SyA1b2C3d4E5f6G7h8I9j0KlMnOpQrStUvW') },
  { shape: 'azure AccountKey=', line: j('DefaultEndpointsProtocol=https;AccountName=memctxdemo;AccountKey=', 'Zm9vYmFyYmF6cXV4Zm9vYmFyYmF6cXV4Zm9vYmFyYmF6cXV4Zm9vYmFyYmF6cXV4Zm9vYmFyYmF6cXV4MTIzNA==', ';EndpointSuffix=core.windows.net'), value: j('Zm9vYmFyYmF6cXV4Zm9vYmFyYmF6', 'cXV4Zm9vYmFyYmF6cXV4') },
  { shape: '.env DB_PASSWORD=', line: j('DB_PASSWORD=', 'Tr0ub4dor-horse'), value: j('Tr0ub4dor', '-horse') },
  { shape: 'sendgrid SG.', line: j('mail: SG.', 'ngeVfQFYQlKU0ufo8x5d1A-_x.', 'TwL2iGABf9DHoTf-09kqeF8tAmbihYzrnopKc-1s5cr_'), value: j('SG.', 'ngeVfQFYQlKU0ufo8x5d1A-_x.', 'TwL2iGABf9DHoTf-09kqeF8tAmbihYzrnopKc-1s5cr_') },
  { shape: 'gcp service account json', line: j('{"type": "service_account", "project_id": "demo", "private_key_id": "', 'a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b0', '", "private_key": "-----BEGIN PRIVATE KEY-----\\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC', 'BKcwggSjAgEAAoIBAQC7\\n-----END PRIVATE KEY-----\\n", "client_email": "x@demo.iam.gserviceaccount.com"}'), value: j('MIIEvQIBADANBgkqhkiG9w0BAQEFAASC', 'BKcwggSjAgEAAoIBAQC7') },
  { shape: 'rsa private key', line: j('-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA3Tz2mr7SZiAMfQyuvBjM9Oi', 'Z1BjP5CE/Wm/Rr500P\n-----END RSA PRIVATE KEY-----'), value: j('MIIEpAIBAAKCAQEA3Tz2mr7SZiAMfQyuvBjM9Oi', 'Z1BjP5CE') },
  { shape: 'openssh private key', line: j('-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9u', 'ZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n-----END OPENSSH PRIVATE KEY-----'), value: j('b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9u', 'ZQAAAAAAAAABAAAAMwAAAAtzc2gtZW') },
  { shape: 'jwt', line: j('session eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.', 'eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U'), value: j('eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.', 'eyJzdWIiOiIxMjM0NTY3ODkwIn0') },
  { shape: 'url with password', line: j('DATABASE_URL=postgres://admin:', 'hunter2xyz@db.internal:5432/app'), value: j('hunter2', 'xyz@') },
  { shape: 'PASSWORD=', line: j('PASSWORD=', 'correct-battery-staple'), value: j('correct-battery', '-staple') },
  { shape: 'SECRET=', line: j('JWT_SECRET=', 'q8Wm2Lp5Xr7Tn3Vb'), value: j('q8Wm2Lp5', 'Xr7Tn3Vb') },
  { shape: 'TOKEN=', line: j('API_TOKEN: ', 'f3a9c1d7e5b2a8c4d6e0'), value: j('f3a9c1d7e5', 'b2a8c4d6e0') },
  { shape: 'npm token', line: j('//registry.npmjs.org/:_authToken=npm_', 'AbCdEfGhIjKlMnOpQrStUvWxYz0123456789'), value: j('npm_', 'AbCdEfGhIjKlMnOpQrStUvWxYz0123456789') },
  { shape: 'gitlab glpat-', line: j('gitlab glpat-', 'xYz12AbC34dEf56GhI78'), value: j('glpat-', 'xYz12AbC34dEf56GhI78') },
  { shape: 'hugging face hf_', line: j('hub token hf_', 'AbCdEfGhIjKlMnOpQrStUvWxYzAbCdEfGh'), value: j('hf_', 'AbCdEfGhIjKlMnOpQrStUvWxYzAbCdEfGh') },
];
