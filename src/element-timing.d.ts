// The Element Timing API's attribute on images (their paint time, which bench/attachments.mjs reads).
import 'react';

declare module 'react' {
  // The type parameter must be named as React's own for the declarations to merge.
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface ImgHTMLAttributes<T> {
    elementtiming?: string;
  }
}
