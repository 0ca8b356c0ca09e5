import {
  IconAward,
  IconBriefcase,
  IconHeart,
  IconMessageCircle,
  IconMessages,
  IconReportAnalytics,
  IconWifiOff,
} from '@tabler/icons-react';
import { useLayoutEffect } from 'react';
import { Link } from 'react-router-dom';
import { releaseHomePrerender } from '../boot/home-prerender-app';
import { paths } from '../config/paths';
import { useAuth } from '../features/auth/auth-context';

const features = [
  {
    title: 'Insightful Discussions',
    text: 'Debate methods, sampling and analysis with practitioners who have run the studies, not just read about them.',
    Icon: IconMessages,
  },
  {
    title: 'Contributor Recognition',
    text: 'Earn Top Contributor status by sharing work your peers find useful, and get known for your expertise.',
    Icon: IconAward,
  },
  {
    title: 'Exclusive Research',
    text: 'Read case studies, frameworks and findings that members share only with the community.',
    Icon: IconReportAnalytics,
  },
  {
    title: 'Career Growth',
    text: 'Pick up new techniques, meet mentors and keep your skills ahead of a fast-moving industry.',
    Icon: IconBriefcase,
  },
];

/** The marketing home page: hero, the four feature cards and calls to action. */
export function HomePage() {
  const { isAuthenticated } = useAuth();
  // The page the build prerendered (vite.config.ts) goes in the commit that draws this one: same frame.
  useLayoutEffect(releaseHomePrerender, []);
  const primary = isAuthenticated ? { to: paths.forum, label: 'Go to Forum' } : { to: paths.signup, label: 'Join Now' };
  return (
    <>
      <section className="app-hero" aria-labelledby="hero-title">
        <div className="container">
          <div className="row align-items-center gy-5">
            <div className="col-lg-7">
              <p className="app-eyebrow">The community for market research professionals</p>
              <h1 id="hero-title" className="app-hero-title">
                Where research professionals exchange what really works
              </h1>
              <p className="app-hero-lead">
                Discuss methods, share findings and learn from peers at agencies, brands and universities, in a moderated forum that keeps
                working when you are offline.
              </p>
              <div className="app-hero-actions">
                <Link className="btn btn-warning btn-lg" to={primary.to}>
                  {primary.label}
                </Link>
                <Link className="btn btn-outline-light btn-lg" to={paths.about}>
                  About the community
                </Link>
              </div>
            </div>
            <div className="col-lg-5 d-none d-lg-block" aria-hidden="true">
              <div className="app-hero-preview">
                <div className="app-hero-preview-meta">
                  <span className="app-hero-preview-avatar">PP</span>
                  <span>
                    <strong>Priya Patel</strong>
                    <small>Quantitative · 1 day ago</small>
                  </span>
                </div>
                <p className="app-hero-preview-title">MaxDiff or conjoint for feature prioritisation? Our rule of thumb</p>
                <p className="app-hero-preview-text">A product team asked us to rank 28 candidate features for a subscription app…</p>
                <div className="app-hero-preview-stats">
                  <span>
                    <IconHeart size={16} /> 31
                  </span>
                  <span>
                    <IconMessageCircle size={16} /> 15
                  </span>
                  <span className="app-hero-preview-offline">
                    <IconWifiOff size={16} /> Works offline
                  </span>
                </div>
              </div>
            </div>
          </div>
        </div>
      </section>

      <section className="app-section container" aria-labelledby="features-title">
        <div className="text-center mx-auto app-section-intro">
          <h2 id="features-title">Everything you need to sharpen your practice</h2>
          <p className="text-body-secondary">One place for the conversations that make research better.</p>
        </div>
        <div className="row g-4">
          {features.map(({ title, text, Icon }) => (
            <div key={title} className="col-12 col-sm-6 col-lg-3">
              <div className="card h-100 app-feature">
                <div className="card-body">
                  <span className="app-feature-icon" aria-hidden="true">
                    <Icon size={26} />
                  </span>
                  <h3 className="h5">{title}</h3>
                  <p className="text-body-secondary mb-0">{text}</p>
                </div>
              </div>
            </div>
          ))}
        </div>
      </section>

      <section className="app-cta" aria-labelledby="cta-title">
        <div className="container text-center">
          <h2 id="cta-title">Ready to share your next insight?</h2>
          <p>Join 2,500+ research professionals who learn from each other every day.</p>
          <div className="app-hero-actions justify-content-center">
            <Link className="btn btn-warning btn-lg" to={primary.to}>
              {isAuthenticated ? 'Go to Forum' : 'Create your account'}
            </Link>
            <Link className="btn btn-outline-light btn-lg" to={paths.about}>
              Read our story
            </Link>
          </div>
        </div>
      </section>
    </>
  );
}
