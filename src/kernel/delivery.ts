/** How an attempt ended: delivered, to be tried again, given up, or delivered without a record of it. */
export type DeliveryOutcome = 'sent' | 'retrying' | 'failed' | 'unrecorded';
