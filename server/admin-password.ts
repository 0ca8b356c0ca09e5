// `npm run admin:password`: sets a new password for the admin account (ADMIN_PASSWORD when set,
// else a generated one, printed once) and signs out every admin session. Run it with the server
// stopped when the database is the embedded one (PGlite opens its folder in one process only).
import { findUser, setPassword } from './db/members/accounts';
import { ConfigError, readConfig } from './config';
import { DatabaseOpenError } from './db/storage/adapter';
import { openDatabase } from './db/storage/open';
import { builtCreation } from './db/storage/ready-made';
import { startUp } from './db/storage/startup';
import { passwordBlock } from './lib/log-format';
import { generatePassword, hashPassword } from './lib/passwords';

async function main(): Promise<void> {
  const config = readConfig();
  const password = config.adminPassword ?? generatePassword();
  const db = await openDatabase(config, builtCreation(import.meta.url));
  try {
    await startUp(db, { adminEmail: config.adminEmail, adminPassword: password, log: console.log });
    const admin = await findUser(db, config.adminEmail);
    if (!admin) throw new Error(`No account ${config.adminEmail}.`);
    await setPassword(db, admin.id, await hashPassword(password));
  } finally {
    await db.close();
  }
  console.log(
    config.adminPassword
      ? `The password of ${config.adminEmail} is now the one in ADMIN_PASSWORD; its sessions were signed out.`
      : passwordBlock('The admin password was changed to a generated one; its sessions were signed out.', config.adminEmail, password),
  );
}

main().catch((error: unknown) => {
  const known = error instanceof ConfigError || error instanceof DatabaseOpenError;
  console.error(`Cannot set the admin password: ${known || error instanceof Error ? (error as Error).message : String(error)}`);
  process.exit(1);
});
