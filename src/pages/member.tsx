import { useParams } from 'react-router-dom';
import { MemberProfileView } from '../features/members/member-profile-view';
import { MEMBER_ID_PATTERN } from '../shared/members';

/** A member's public page (`/members/:id`). */
export function MemberPage() {
  const id = (useParams().id ?? '').toLowerCase();
  // An address that cannot be a member's id is not asked about: the same "Member not found".
  return <MemberProfileView key={id} id={MEMBER_ID_PATTERN.test(id) ? id : '0000000000000000'} />;
}
