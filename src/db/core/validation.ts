// The input rules of product.md §5 as plain functions. Each returns `null` when the input is fine, or
// the exact toast (title and description) of the error catalogue in product.md §6.

export interface Problem {
  title: string;
  message: string;
}

export { LIMITS } from '../../shared/post-rules';
import { LIMITS } from '../../shared/post-rules';

const blank = (value: string | undefined | null): boolean => !value || value.trim() === '';

/** Sign in: email and password are both required. */
export function validateSignIn(email: string, password: string): Problem | null {
  if (blank(email) || !password) return { title: 'Error', message: 'Please enter email and password.' };
  return tooLong('Email', email, LIMITS.email) ?? tooLong('Password', password, LIMITS.password);
}

/** Sign up: name, email and password are all required. */
export function validateSignUp(name: string, email: string, password: string): Problem | null {
  if (blank(name) || blank(email) || !password) return { title: 'Error', message: 'Please fill all fields.' };
  return tooLong('Name', name, LIMITS.name) ?? tooLong('Email', email, LIMITS.email) ?? tooLong('Password', password, LIMITS.password);
}

/** New post: title and content must be non-empty after trimming, and within the form limits. */
export function validateNewPost(title: string, content: string): Problem | null {
  if (blank(title) || blank(content)) {
    return { title: 'Missing Information', message: 'Please fill in both title and content for your post.' };
  }
  return tooLong('Title', title.trim(), LIMITS.title) ?? tooLong('Content', content.trim(), LIMITS.content);
}

/** The catalogue's "too long" problem for a field, or null when `value` fits `max`. */
export function tooLong(field: string, value: string, max: number): Problem | null {
  if (value.length <= max) return null;
  return {
    title: `${field} is too long`,
    message: `${field} can be at most ${max.toLocaleString('en-US')} characters (it has ${value.length.toLocaleString('en-US')}).`,
  };
}
