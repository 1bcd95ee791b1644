import NotFoundRoute from './not-found';

// Built by the storefront issue's next step.
export default NotFoundRoute;
