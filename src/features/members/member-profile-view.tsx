import { useEffect } from 'react';
import { IconUserQuestion } from '@tabler/icons-react';
import { Link } from 'react-router-dom';
import { AdminBadge } from '../../components/author-name';
import { Avatar } from '../../components/avatar';
import { EmptyState } from '../../components/empty-state';
import { PageLoading } from '../../components/page-loading';
import { PostCard } from '../../components/post-card';
import { paths } from '../../config/paths';
import { ERRORS } from '../../shared/errors';
import { formatCount } from '../../lib/format';
import { useMember } from './use-member';

const joined = (at: number) => `Joined ${new Date(at).toLocaleDateString('en-US', { month: 'long', year: 'numeric' })}`;

/** One figure of the member's page: a number over its label. */
function Figure({ value, label }: { value: number; label: string }) {
  return (
    <div className="app-member-figure">
      <dt>{label}</dt>
      <dd>{formatCount(value)}</dd>
    </div>
  );
}

/** `/members/:id`: a member's name, join date, figures and approved posts; only what every member may see. */
export function MemberProfileView({ id }: { id: string }) {
  const { profile, posts, source, notFound } = useMember(id);
  const name = profile?.name;
  useEffect(() => {
    document.title = `${notFound ? ERRORS.member_not_found.title : (name ?? 'Member')} · Insight Exchange`;
  }, [name, notFound]);
  if (notFound) {
    return (
      <div className="container app-page-body">
        <h1 className="h2">{ERRORS.member_not_found.title}</h1>
        <EmptyState icon={<IconUserQuestion size={40} />} title={ERRORS.member_not_found.message}>
          <Link to={paths.forum}>Back to the forum</Link>
        </EmptyState>
      </div>
    );
  }
  if (!profile) return <PageLoading label="Loading the member..." />;
  return (
    <div className="container app-page-body">
      <section className="card app-profile-card app-member-card" aria-labelledby="member-name">
        <div className="card-body">
          <Avatar name={profile.name} seed={profile.id} size={64} />
          <div className="app-profile-identity">
            <div className="app-member-name">
              <h1 id="member-name" className="h3 mb-1">
                {profile.name}
              </h1>
              {profile.role === 'admin' && <AdminBadge />}
            </div>
            {profile.joinedAt !== null && <p className="mb-2 text-body-secondary">{joined(profile.joinedAt)}</p>}
            <dl className="app-member-figures">
              <Figure value={profile.approvedPosts} label={profile.approvedPosts === 1 ? 'post' : 'posts'} />
              <Figure value={profile.replyCount} label={profile.replyCount === 1 ? 'reply' : 'replies'} />
              <Figure value={profile.likesReceived} label={profile.likesReceived === 1 ? 'like received' : 'likes received'} />
            </dl>
            {source === 'device' && <p className="small text-body-secondary mb-0">Counted from the posts and replies on this device.</p>}
          </div>
        </div>
      </section>
      <section className="mt-4" aria-labelledby="member-posts">
        <h2 id="member-posts" className="h4 mb-3">
          Posts by {profile.name}
        </h2>
        {!posts ? (
          <PageLoading label="Loading the posts..." />
        ) : posts.length === 0 ? (
          <EmptyState title="No posts on this device yet." />
        ) : (
          <div className="app-post-list">
            {posts.map((post) => (
              <PostCard key={post.id} post={post} />
            ))}
          </div>
        )}
      </section>
    </div>
  );
}
