import { IconEdit } from '@tabler/icons-react';
import { Avatar } from '../../components/avatar';
import { plural } from '../../lib/format';
import type { Session } from '../../db/types';
import { useMyPostCount } from './use-my-posts';

/** Name, email and role of the signed-in member, with the Edit Profile button (no behaviour yet). */
export function ProfileCard({ user }: { user: Session }) {
  const count = useMyPostCount(user.email);
  return (
    <section className="card app-profile-card" aria-labelledby="profile-name">
      <div className="card-body">
        <Avatar name={user.name} seed={user.email} size={64} />
        <div className="app-profile-identity">
          <h1 id="profile-name" className="h3 mb-1">
            {user.name}
          </h1>
          <p className="mb-2 text-body-secondary app-break app-profile-email">{user.email}</p>
          <div className="d-flex flex-wrap gap-2 align-items-center">
            <span className={`badge ${user.role === 'admin' ? 'text-bg-primary' : 'text-bg-secondary'}`}>
              {user.role === 'admin' ? 'Admin' : 'Member'}
            </span>
            {count !== undefined && <span className="small text-body-secondary">{plural(count, 'post')}</span>}
          </div>
        </div>
        <button type="button" className="btn btn-outline-primary app-profile-edit">
          <IconEdit aria-hidden="true" size={18} />
          <span>Edit Profile</span>
        </button>
      </div>
    </section>
  );
}
