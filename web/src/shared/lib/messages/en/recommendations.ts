/** English texts of the `recommendations` feature (section `recommendations.*`; same keys as `../es/recommendations.ts`, docs/portal.md#messages). */
import type { Catalogue } from '../es';

export const recommendations: Catalogue['recommendations'] = {
  page: {
    filterRecommendations: 'Filter recommendations',
    status: 'Status',
    priority: 'Priority',
    all: 'All',
    noMatches: 'No recommendation matches the filters.',
    noRecommendations: 'No recommendations.',
    writeANote: 'Write a note.',
    noteTooLong: 'The note cannot be longer than 1000 characters.',
    recommendation: 'Recommendation "{{title}}": {{status}}.',
    by: 'by',
    on: 'on',
    noteFor: 'Note for "',
    confirm: 'Confirm: {{action}}',
  },
  labels: {
    accept: 'Accept',
    markAsDone: 'Mark as done',
  },
};
