import { newPostsLabel } from '../../shared/post-rules';

/** "N new posts": at the top of the forum while posts that arrived since the last visit are unseen. */
export function NewPostsPill({ count, onShow }: { count: number; onShow: () => void }) {
  return (
    <div className="app-new-pill" data-not-in-snapshot="">
      <button type="button" className="btn btn-primary btn-sm rounded-pill" onClick={onShow}>
        {newPostsLabel(count)}
      </button>
    </div>
  );
}
