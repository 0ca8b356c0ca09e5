import Container from 'react-bootstrap/Container';
import Nav from 'react-bootstrap/Nav';
import Navbar from 'react-bootstrap/Navbar';
import { Link, NavLink } from 'react-router-dom';
import { Brand } from '../brand';
import { paths } from '../../config/paths';
import { useCollapseOnNavigate } from './use-collapse-on-navigate';

/** Header of the public pages: Home, About Us, then Login and Join Now, or Go to Forum when signed in. */
export function PublicHeader({ signedIn }: { signedIn: boolean }) {
  const [expanded, setExpanded] = useCollapseOnNavigate();
  return (
    <header className="app-header">
      <Navbar expand="md" className="app-navbar app-navbar-public" expanded={expanded} onToggle={setExpanded}>
        <Container>
          <Navbar.Brand as={Link} to={paths.home}>
            <Brand />
          </Navbar.Brand>
          <Navbar.Toggle aria-controls="public-nav" label="Menu" />
          <Navbar.Collapse id="public-nav">
            <Nav as="ul" className="ms-auto align-items-md-center app-nav">
              <Nav.Item as="li">
                <Nav.Link as={NavLink} to={paths.home} end>
                  Home
                </Nav.Link>
              </Nav.Item>
              <Nav.Item as="li">
                <Nav.Link as={NavLink} to={paths.about}>
                  About Us
                </Nav.Link>
              </Nav.Item>
              {signedIn ? (
                <Nav.Item as="li" className="ms-md-2">
                  <Link className="btn btn-primary" to={paths.forum}>
                    Go to Forum
                  </Link>
                </Nav.Item>
              ) : (
                <>
                  <Nav.Item as="li">
                    <Nav.Link as={NavLink} to={paths.login} end>
                      Login
                    </Nav.Link>
                  </Nav.Item>
                  <Nav.Item as="li" className="ms-md-2">
                    <Link className="btn btn-primary" to={paths.signup}>
                      Join Now
                    </Link>
                  </Nav.Item>
                </>
              )}
            </Nav>
          </Navbar.Collapse>
        </Container>
      </Navbar>
    </header>
  );
}
