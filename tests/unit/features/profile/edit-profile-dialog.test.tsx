// @vitest-environment happy-dom
// Edit Profile: a display name the server refused (another member has it) is never lost: the dialog
// opens with it and the server's sentence, once; without one it opens with the current name.
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { db } from '../../../../src/db/storage/schema';
import { nameDraftMetaKey } from '../../../../src/db/contracts';
import { EMPTY_NAME, EditProfileDialog } from '../../../../src/features/profile/edit-profile-dialog';
import { signInAsMember } from '../../factories';

afterEach(() => cleanup());

const field = () => screen.getByLabelText<HTMLInputElement>('Display name');

describe('EditProfileDialog', () => {
  it('an empty name is told as such, and nothing is saved', async () => {
    const member = signInAsMember();
    render(<EditProfileDialog email={member.email} name="Jane Doe" show onHide={() => undefined} />);
    fireEvent.change(field(), { target: { value: '   ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    expect((await screen.findByRole('alert')).textContent).toBe(EMPTY_NAME);
    expect(field().getAttribute('aria-invalid')).toBe('true');
  });

  it('opens with a refused name and its sentence, once', async () => {
    const member = signInAsMember();
    const reason = 'Another member already uses this name. Choose another one.';
    await db.meta.put({ key: nameDraftMetaKey(member.email), value: { name: 'Taken Name', reason } });
    const view = render(<EditProfileDialog email={member.email} name="Jane Doe" show onHide={() => undefined} />);
    await waitFor(() => expect(field().value).toBe('Taken Name'));
    expect(screen.getByRole('alert').textContent).toBe(reason);
    expect(field().getAttribute('aria-invalid')).toBe('true');
    expect(await db.meta.get(nameDraftMetaKey(member.email))).toBeUndefined();

    // Opened again: the current name, no sentence.
    view.rerender(<EditProfileDialog email={member.email} name="Jane Doe" show={false} onHide={() => undefined} />);
    await waitFor(() => expect(screen.queryByLabelText('Display name')).toBeNull());
    view.rerender(<EditProfileDialog email={member.email} name="Jane Doe" show onHide={() => undefined} />);
    await waitFor(() => expect(field().value).toBe('Jane Doe'));
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
