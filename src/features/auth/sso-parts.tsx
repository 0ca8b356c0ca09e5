// What /login's organisation sign-in (sso-sign-in.tsx) and its provider's return (sso-return.tsx,
// loaded apart) share: the sign-in's code, the app path to go back to, and a refusal's alert.
import { paths } from '../../config/paths';

export const sso = () => import('../../sync/sso');

/** An app path to go to after signing in (the server checked it too; a link could carry anything). */
export const appPath = (value: string | null) =>
  value && value.startsWith('/') && !value.startsWith('//') && !value.includes('\\') ? value : paths.home;

/** One alert for a refusal: the code's sentence (an unknown code: sso_failed's). */
export function Refusal({ error }: { error: { title: string; message: string } }) {
  return (
    <div role="alert" className="alert alert-danger">
      <strong>{error.title}.</strong> {error.message}
    </div>
  );
}
