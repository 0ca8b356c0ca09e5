import { IconCircleCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { useLocation } from 'react-router-dom';
import { readStop } from '../db/members/stop-notice';
import { LoginForm } from '../features/auth/login-form';
import { SsoSignIn } from '../features/auth/sso-sign-in';
import { useMode } from '../hooks/use-mode';
import { useAsyncValue } from '../hooks/use-async-value';
import { DRAFT_KEPT } from '../shared/errors';

const benefits = [
  'Discuss methods with experienced practitioners',
  'Share findings and earn Top Contributor status',
  'Read and post even when you are offline',
];

/** Sign in or create an account; success goes to the home page. */
export function LoginPage() {
  const state = useLocation().state as { signedOutElsewhere?: boolean; signedOutEmail?: string } | null;
  const mode = useMode();
  // Signed out by the staff, a new password or another device: why, and until when (instead of
  // "signed out in another tab").
  const [stopped] = useState(readStop);
  // A tab signed out by another: its draft is named only when there is one (issue 59).
  const email = state?.signedOutElsewhere && !stopped ? state.signedOutEmail : undefined;
  const draft = useAsyncValue(email ? () => import('../db/posts/drafts').then((drafts) => drafts.hasDraft(email)) : undefined, {
    key: email ?? '',
  });
  return (
    <div className="container app-auth">
      <div className="row g-4 align-items-center justify-content-center">
        <div className="col-lg-5 d-none d-lg-block">
          <div className="app-auth-aside">
            <h2 className="h3">Your research community, in your pocket</h2>
            <ul className="list-unstyled mb-0">
              {benefits.map((benefit) => (
                <li key={benefit}>
                  <IconCircleCheck aria-hidden="true" size={20} />
                  <span>{benefit}</span>
                </li>
              ))}
            </ul>
            {mode && (
              <p className="small mt-4 mb-0 app-auth-note">
                {mode === 'connected'
                  ? 'Your account lives on this forum’s server: sign in on any of your devices, and read what you synced even with no signal.'
                  : 'Accounts live in this browser only: there is no server, so nothing you type leaves this device.'}
              </p>
            )}
          </div>
        </div>
        <div className="col-md-8 col-lg-5">
          {stopped ? (
            <div role="status" className="alert alert-warning">
              <strong>{stopped.title}.</strong> {stopped.description}
            </div>
          ) : (
            state?.signedOutElsewhere && (
              <div role="status" className="alert alert-info">
                You were signed out in another tab. Sign in again to continue.{draft?.value ? ` ${DRAFT_KEPT}` : ''}
              </div>
            )
          )}
          <SsoSignIn>{(noSignUp) => <LoginForm noSignUp={noSignUp} />}</SsoSignIn>
        </div>
      </div>
    </div>
  );
}
