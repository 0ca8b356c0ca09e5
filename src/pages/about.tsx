import { IconTarget, IconTelescope, IconUsersGroup } from '@tabler/icons-react';
import { Link } from 'react-router-dom';
import { paths } from '../config/paths';

const sections = [
  {
    id: 'mission',
    title: 'Our Mission',
    Icon: IconTarget,
    paragraphs: [
      'Market research gets better when the people doing it share what they learn. Our mission is to give researchers a trusted place to trade methods, findings and hard-won lessons, so every study builds on the last.',
      'We keep the conversation practical: real projects, real numbers and honest accounts of what did not work.',
    ],
  },
  {
    id: 'community',
    title: 'Our Community',
    Icon: IconUsersGroup,
    paragraphs: [
      'Insight Exchange brings together quantitative and qualitative researchers, insight managers, data scientists and students, from agencies, in-house teams and universities.',
      'Every post is reviewed by a moderator before it goes live, which keeps discussions focused, respectful and free of spam.',
    ],
  },
  {
    id: 'vision',
    title: 'Our Vision',
    Icon: IconTelescope,
    paragraphs: [
      'We picture an industry where good practice spreads quickly: where a new technique tested in one market helps a team in another the same week.',
      'As AI changes how research is done, we want practitioners to shape those tools together, with rigour and transparency.',
    ],
  },
];

/** About: mission, community and vision. */
export function AboutPage() {
  return (
    <>
      <section className="app-page-header">
        <div className="container">
          <p className="app-eyebrow">About Insight Exchange</p>
          <h1>Built by researchers, for researchers</h1>
          <p className="app-hero-lead mb-0">A community forum for market research professionals to learn from each other.</p>
        </div>
      </section>
      <div className="container app-section">
        <div className="row g-4">
          {sections.map(({ id, title, Icon, paragraphs }) => (
            <section key={id} className="col-12 col-lg-4" aria-labelledby={`about-${id}`}>
              <div className="card h-100 app-feature">
                <div className="card-body">
                  <span className="app-feature-icon" aria-hidden="true">
                    <Icon size={26} />
                  </span>
                  <h2 id={`about-${id}`} className="h4">
                    {title}
                  </h2>
                  {paragraphs.map((paragraph) => (
                    <p key={paragraph} className="text-body-secondary">
                      {paragraph}
                    </p>
                  ))}
                </div>
              </div>
            </section>
          ))}
        </div>
        <div className="card app-about-cta mt-5">
          <div className="card-body">
            <div>
              <h2 className="h4 mb-1">Want to join the conversation?</h2>
              <p className="mb-0 text-body-secondary">Create a free account and share your first insight today.</p>
            </div>
            <Link className="btn btn-primary btn-lg" to={paths.signup}>
              Create your account
            </Link>
          </div>
        </div>
      </div>
    </>
  );
}
