import { IconBrandLinkedin, IconBrandX, IconBrandYoutube } from '@tabler/icons-react';
import { Link } from 'react-router-dom';
import { Brand } from '../brand';
import { paths } from '../../config/paths';
import { AppVersion } from '../app-version';

const socials = [
  { label: 'Insight Exchange on LinkedIn', Icon: IconBrandLinkedin },
  { label: 'Insight Exchange on X', Icon: IconBrandX },
  { label: 'Insight Exchange on YouTube', Icon: IconBrandYoutube },
];

/** Footer of the public pages: platform links (Join Now for visitors only, as in the header), legal texts (not linked) and social icons that go nowhere yet. */
export function PublicFooter({ signedIn = false }: { signedIn?: boolean }) {
  return (
    <footer className="app-footer">
      <div className="container">
        <div className="row gy-4">
          <div className="col-12 col-md-5">
            <Brand light />
            <p className="mt-3 mb-3 app-footer-tagline">The community for market research professionals.</p>
            <ul className="app-socials" aria-label="Social media">
              {socials.map(({ label, Icon }) => (
                <li key={label}>
                  <a href="#" aria-label={label} onClick={(event) => event.preventDefault()}>
                    <Icon aria-hidden="true" size={20} />
                  </a>
                </li>
              ))}
            </ul>
          </div>
          <nav className="col-6 col-md-3 offset-md-1" aria-labelledby="footer-platform">
            <h2 id="footer-platform" className="app-footer-heading">
              Platform
            </h2>
            <ul className="list-unstyled app-footer-links">
              <li>
                <Link to={paths.about}>About Us</Link>
              </li>
              <li>
                <Link to={paths.forum}>Forum</Link>
              </li>
              {!signedIn && (
                <li>
                  <Link to={paths.signup}>Join Now</Link>
                </li>
              )}
            </ul>
          </nav>
          <div className="col-6 col-md-3">
            <h2 className="app-footer-heading">Legal</h2>
            <ul className="list-unstyled app-footer-links">
              <li>Privacy Policy</li>
              <li>Terms of Service</li>
            </ul>
          </div>
        </div>
        <div className="app-footer-bottom">
          <span>© {new Date().getFullYear()} Insight Exchange</span>
          <AppVersion />
        </div>
      </div>
    </footer>
  );
}
