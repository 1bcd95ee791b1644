import type { TestimonialView } from '@licensestore/contract/testimonials';

/** A demo testimonial dated by how long before the store's first start it was written. */
export interface DemoTestimonial extends Omit<TestimonialView, 'date'> {
  daysBeforeSeed: number;
}

/**
 * Reference data for the home page (not event-sourced), fixed demo content an owner replaces with real reviews.
 * Ids are fixed so a re-run can never duplicate a row.
 */
export const demoTestimonials: DemoTestimonial[] = [
  {
    id: '6a0f3c52-6c1e-4d0b-9a3e-1f0c2b7d4e01',
    customerName: 'Sarah Mitchell',
    rating: 5,
    comment:
      'The Office 2021 key arrived in my inbox within ten minutes and activated on the first try. ' +
      'Half the price I was quoted at the big-box store.',
    location: 'Austin, TX',
    daysBeforeSeed: 160,
  },
  {
    id: '6a0f3c52-6c1e-4d0b-9a3e-1f0c2b7d4e02',
    customerName: 'James Okafor',
    rating: 5,
    comment:
      'Upgraded three office PCs from Windows 10 Home to 11 Pro. Clear instructions, genuine keys, and support ' +
      'answered my BitLocker question at 11 pm.',
    location: 'Manchester, UK',
    daysBeforeSeed: 134,
  },
  {
    id: '6a0f3c52-6c1e-4d0b-9a3e-1f0c2b7d4e03',
    customerName: 'Elena Rossi',
    rating: 4,
    comment:
      'Photoshop Elements was exactly what I needed for family photos. Delivery took about twenty minutes, ' +
      'as promised, and everything worked perfectly.',
    location: 'Toronto, ON',
    daysBeforeSeed: 109,
  },
  {
    id: '6a0f3c52-6c1e-4d0b-9a3e-1f0c2b7d4e04',
    customerName: 'David Chen',
    rating: 5,
    comment:
      'Bought Norton 360 Deluxe for the whole family. One key covered all five of our devices and the VPN is ' +
      'a nice bonus. Will buy again at renewal time.',
    location: 'San Jose, CA',
    daysBeforeSeed: 88,
  },
  {
    id: '6a0f3c52-6c1e-4d0b-9a3e-1f0c2b7d4e05',
    customerName: 'Priya Sharma',
    rating: 5,
    comment:
      'Our small accounting firm needed Office Home & Business on six machines. Checkout was quick, every key ' +
      'was delivered automatically, and the invoice was ready for our books.',
    location: 'Sydney, NSW',
    daysBeforeSeed: 67,
  },
  {
    id: '6a0f3c52-6c1e-4d0b-9a3e-1f0c2b7d4e06',
    customerName: 'Michael Brandt',
    rating: 4,
    comment:
      'Good prices and a legitimate Windows 11 Pro license. I had typed my email wrong at checkout and support ' +
      'sorted it out within the hour.',
    location: 'Hamburg, Germany',
    daysBeforeSeed: 45,
  },
  {
    id: '6a0f3c52-6c1e-4d0b-9a3e-1f0c2b7d4e07',
    customerName: 'Olivia Turner',
    rating: 5,
    comment:
      'Premiere Elements plus Photoshop Elements bundle for my YouTube channel. Instant download, lifetime ' +
      'license, no subscription to worry about. Highly recommended.',
    location: 'Denver, CO',
    daysBeforeSeed: 26,
  },
  {
    id: '6a0f3c52-6c1e-4d0b-9a3e-1f0c2b7d4e08',
    customerName: 'Lucas Fernandes',
    rating: 5,
    comment:
      'Third purchase here and as smooth as the first two. The key is on the confirmation page right away.',
    location: 'Lisbon, Portugal',
    daysBeforeSeed: 9,
  },
];

const DAY_MS = 24 * 60 * 60 * 1000;

/** The demo testimonials dated in the months before `now`, so a new store's reviews read as recent ones. */
export const testimonialsAsOf = (now: Date): TestimonialView[] =>
  demoTestimonials.map(({ daysBeforeSeed, ...testimonial }) => ({
    ...testimonial,
    date: new Date(now.getTime() - daysBeforeSeed * DAY_MS).toISOString().slice(0, 10),
  }));
