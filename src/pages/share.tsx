import { useEffect, useRef } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { PageLoading } from '../components/page-loading';
import { paths } from '../config/paths';
import { saveDraft } from '../db/posts/drafts';
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
 * /share (share_target) and /new (the "New Post" shortcut): the forum with New Post open; what
 * was shared becomes its draft, not a post. The address becomes /forum.
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
    const saved = draft ? saveDraft(user.email, { ...draft, category: DEFAULT_CATEGORY }).catch(() => undefined) : Promise.resolve();
    void saved.then(() => {
      navigate(paths.forum, { replace: true });
      open();
    });
  }, [user, params, navigate, open]);
  return <PageLoading />;
}
