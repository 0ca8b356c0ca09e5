import { useEffect, useRef } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { PageLoading } from '../components/page-loading';
import { paths } from '../config/paths';
import { loadDraft, saveDraft, type PostDraft } from '../db/posts/drafts';
import { DEFAULT_CATEGORY } from '../db/types';
import { useAuth } from '../features/auth/auth-context';
import { useNewPost } from '../features/posting/new-post-context';

/** What another app shared (the manifest's share_target: title, text, url) as a New Post draft. */
export function sharedDraft(params: URLSearchParams): { title: string; content: string } | null {
  const title = params.get('title')?.trim() ?? '';
  const content = [params.get('text')?.trim(), params.get('url')?.trim()].filter(Boolean).join('\n\n');
  return title || content ? { title, content } : null;
}

/**
 * The New Post draft after a share: what was shared, added to an unsent draft rather than
 * replacing it (its title kept when it has one, the shared text after its text, its category kept).
 */
export function withShared(existing: PostDraft | null, shared: { title: string; content: string }): Omit<PostDraft, 'savedAt'> {
  if (!existing || (!existing.title.trim() && !existing.content.trim()))
    return { ...shared, category: existing?.category || DEFAULT_CATEGORY };
  const title = existing.title.trim() ? existing.title : shared.title;
  const content = [existing.content.trimEnd(), shared.content].filter(Boolean).join('\n\n');
  return { title, content, category: existing.category || DEFAULT_CATEGORY };
}

/**
 * /share (share_target) and /new (the "New Post" shortcut): the forum with New Post open; what
 * was shared becomes its draft (added to an unsent one), not a post. The address becomes /forum.
 */
export function SharePage() {
  const { user } = useAuth();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const { open } = useNewPost();
  const done = useRef(false);
  useEffect(() => {
    if (!user || done.current) return;
    done.current = true;
    const draft = sharedDraft(params);
    const saved = draft
      ? loadDraft(user.email)
          .then((existing) => saveDraft(user.email, withShared(existing, draft)))
          .catch(() => undefined)
      : Promise.resolve();
    void saved.then(() => {
      navigate(paths.forum, { replace: true });
      open();
    });
  }, [user, params, navigate, open]);
  return <PageLoading />;
}
