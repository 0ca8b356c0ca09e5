import { Link } from 'react-router-dom';
import { paths } from '../../config/paths';

/** Under a post a search found through one of its replies: the link that opens the thread at that reply. */
export function FoundInReply({ postId, replyId }: { postId: number; replyId: string }) {
  return (
    <p className="small mt-n2 mb-3 ms-3">
      <Link to={`${paths.post(postId)}?reply=${encodeURIComponent(replyId)}`}>Found in a reply: open it</Link>
    </p>
  );
}
