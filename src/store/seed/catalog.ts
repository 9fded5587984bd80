/** The fixed vocabulary of the demo data: companies, facilities, names and what facilities sell. */

export interface FacilityPlan {
  name: string;
  timeZone: string;
  /** Tenants at scale 1; `--scale N` multiplies it. */
  tenants: number;
  /** Sales tax on retail items, as a fraction. */
  taxRate: number;
  phonePrefix: string;
  city: string;
  region: string;
  postalCode: string;
  country: string;
  tenantPaymentsDisabled?: boolean;
  /** Fee categories this facility does not charge (so `/fees` shows a null). */
  withoutFees?: string[];
}

export interface CompanyPlan {
  name: string;
  facilities: FacilityPlan[];
}

/** The first company is the demo company: 1,000 tenants x 10 rate changes at scale 1. */
export const COMPANIES: CompanyPlan[] = [
  {
    name: 'Harbor Self Storage',
    facilities: [
      {
        name: 'Harbor Storage Brooklyn',
        timeZone: 'America/New_York',
        tenants: 250,
        taxRate: 0.08875,
        phonePrefix: '+1718555',
        city: 'Brooklyn',
        region: 'NY',
        postalCode: '11201',
        country: 'US',
      },
      {
        name: 'Harbor Storage Santa Monica',
        timeZone: 'America/Los_Angeles',
        tenants: 250,
        taxRate: 0.095,
        phonePrefix: '+1310555',
        city: 'Santa Monica',
        region: 'CA',
        postalCode: '90401',
        country: 'US',
      },
      {
        name: 'Harbor Storage Camden',
        timeZone: 'Europe/London',
        tenants: 250,
        taxRate: 0.2,
        phonePrefix: '+4420794',
        city: 'London',
        region: 'Greater London',
        postalCode: 'NW1 8AB',
        country: 'GB',
      },
      {
        name: 'Harbor Storage Ponsonby',
        timeZone: 'Pacific/Auckland',
        tenants: 250,
        taxRate: 0.15,
        phonePrefix: '+6493601',
        city: 'Auckland',
        region: 'Auckland',
        postalCode: '1011',
        country: 'NZ',
        withoutFees: ['reservation'],
      },
    ],
  },
  {
    name: 'Summit Storage Group',
    facilities: [
      {
        name: 'Summit Storage Lincoln Park',
        timeZone: 'America/Chicago',
        tenants: 60,
        taxRate: 0.1025,
        phonePrefix: '+1312555',
        city: 'Chicago',
        region: 'IL',
        postalCode: '60614',
        country: 'US',
      },
      {
        name: 'summit storage Cherry Creek',
        timeZone: 'America/Denver',
        tenants: 60,
        taxRate: 0.0881,
        phonePrefix: '+1303555',
        city: 'Denver',
        region: 'CO',
        postalCode: '80206',
        country: 'US',
        tenantPaymentsDisabled: true,
        withoutFees: ['online_payment'],
      },
    ],
  },
  {
    name: 'Southern Cross Lockers',
    facilities: [
      {
        name: 'Southern Cross Surry Hills',
        timeZone: 'Australia/Sydney',
        tenants: 40,
        taxRate: 0.1,
        phonePrefix: '+6129555',
        city: 'Sydney',
        region: 'NSW',
        postalCode: '2010',
        country: 'AU',
      },
      {
        name: 'Southern Cross Te Aro',
        timeZone: 'Pacific/Auckland',
        tenants: 40,
        taxRate: 0.15,
        phonePrefix: '+6443855',
        city: 'Wellington',
        region: 'Wellington',
        postalCode: '6011',
        country: 'NZ',
        withoutFees: ['security_deposit'],
      },
    ],
  },
  {
    name: 'Britannia Box Co',
    facilities: [
      {
        name: 'Britannia Box Ancoats',
        timeZone: 'Europe/London',
        tenants: 40,
        taxRate: 0.2,
        phonePrefix: '+4416155',
        city: 'Manchester',
        region: 'Greater Manchester',
        postalCode: 'M4 6DE',
        country: 'GB',
      },
      {
        name: 'Britannia Box Smithfield',
        timeZone: 'Europe/Dublin',
        tenants: 40,
        taxRate: 0.23,
        phonePrefix: '+3531555',
        city: 'Dublin',
        region: 'Dublin',
        postalCode: 'D07',
        country: 'IE',
      },
    ],
  },
];

// Mixed case, particles and accents, so case-insensitive sorting has something to show.
export const FIRST_NAMES = [
  'Ada',
  'Alan',
  'Amara',
  'Ana',
  'Arjun',
  'Beatriz',
  'Ben',
  'Carlos',
  'Chloé',
  'Dara',
  'David',
  'Elena',
  'Émile',
  'Fatima',
  'Finn',
  'Grace',
  'Hannah',
  'Hiro',
  'Isla',
  'Jack',
  'James',
  'José',
  'Kai',
  'Leila',
  'Liam',
  'Mai',
  'Maria',
  'Mateo',
  'Mia',
  'Noah',
  'Olivia',
  'Priya',
  'Ravi',
  'Rosa',
  'Sam',
  'Sofia',
  'Tama',
  'Wei',
  'Yusuf',
  'Zoë',
];

export const LAST_NAMES = [
  'Abbott',
  'Ahmed',
  'Baker',
  'Brown',
  'Chen',
  'Cohen',
  'da Silva',
  'de la Cruz',
  'Dubois',
  'Evans',
  'Fernández',
  'Fischer',
  'García',
  'Gupta',
  'Hall',
  'Ito',
  'Jones',
  'Kaur',
  'Kowalski',
  'Lee',
  'MacDonald',
  'McAllister',
  'Müller',
  'Nguyen',
  "O'Brien",
  'Okafor',
  'Patel',
  'Quinn',
  'Rossi',
  'Ruiz',
  'Schmidt',
  'Singh',
  'Smith',
  'Tanaka',
  'Taylor',
  'te Whiu',
  'van Dyke',
  'Walker',
  'Williams',
  'Wright',
  'Yamamoto',
  'Zimmerman',
];

export const STREETS = ['Main St', 'High St', 'Harbour Rd', 'Queen St', 'Elm Ave', 'Station Rd', 'Park Lane'];

/** Unit sizes with their street-rate range in whole currency units. */
export const UNIT_SIZES = [
  { size: '5x5', min: 45, max: 65 },
  { size: '5x10', min: 65, max: 95 },
  { size: '10x10', min: 110, max: 160 },
  { size: '10x15', min: 140, max: 190 },
  { size: '10x20', min: 180, max: 260 },
  { size: '10x30', min: 250, max: 350 },
];

export const SOURCES = ['Website', 'Rental Center', 'Sales Center', 'Kiosk', 'Call Center'];
export const EMPLOYEES = [
  { name: 'Morgan Reyes', employeeId: '1042', userId: '6f1c2a9e-3b4d-4e8f-9a1b-2c3d4e5f6a70' },
  { name: 'Priya Shah', employeeId: '1057', userId: '0b7d9e21-5c6a-4f3e-8d2b-9a8c7b6d5e41' },
  { name: 'Tom Becker', employeeId: '1101', userId: 'a3e5c7d9-1f2b-4c4d-b6e8-0a1c3e5f7b92' },
  { name: 'Aroha Ngata', employeeId: '1188', userId: '5d4c3b2a-9e8f-4a7b-8c6d-1e2f3a4b5c63' },
];
export const APPLIED_RATES = [
  { name: 'Street Rate', factor: 1 },
  { name: 'Web Rate', factor: 0.9 },
  { name: 'Promo: 20% Off', factor: 0.8 },
  { name: 'Manager Special', factor: 0.85 },
];

/** The users who create rate changes (`created_by` filter); null is the automatic rate engine. */
export const RATE_CHANGE_AUTHORS = [2001, 2002, 2003, 2004, 2005];

export const INSURANCE_PLANS = [
  { coverage: 2000, monthly: 9, code: 'INS-2000' },
  { coverage: 5000, monthly: 14.5, code: 'INS-5000' },
  { coverage: 10000, monthly: 23, code: 'INS-10000' },
];
export const INSURANCE_PROVIDER = { name: 'StorSure Mutual', key: 'storsure' };

export const SERVICES = [
  { description: 'Climate Control', code: 'SVC-CLIMATE', amount: 25 },
  { description: 'Vehicle Battery Tender', code: 'SVC-BATTERY', amount: 10 },
  { description: 'Pest Control', code: 'SVC-PEST', amount: 4.5 },
  { description: 'Extended Gate Hours', code: 'SVC-GATE', amount: 7.5 },
];

export const DISCOUNTS = [
  { name: 'First Month Free', kind: 'limited', description: '100% off the first month', months: 1 },
  { name: 'Military', kind: 'always', description: '10% off rent for active service members', months: null },
  { name: 'Senior', kind: 'always', description: '5% off rent for tenants over 65', months: null },
  {
    name: 'Prepay 12 Months',
    kind: 'limited',
    description: 'One month free with 12 months prepaid',
    months: 12,
  },
];

export const CARD_BRANDS = ['Visa', 'Mastercard', 'American Express', 'Discover'];

export interface FeePlan {
  description: string;
  code: string;
  category: 'security_deposit' | 'online_payment' | 'reservation' | 'move_in' | 'transfer' | 'other';
  /** One tier, or several (the contract's "Variable"). */
  tiers: Array<{ amount: number; kind: 'amount' | 'percent'; limit?: number | null }>;
  requiredAtMoveIn?: boolean;
  requiredAtTransfer?: boolean;
}

export const FEES: FeePlan[] = [
  {
    description: 'Security Deposit',
    code: 'FEE-DEPOSIT',
    category: 'security_deposit',
    tiers: [{ amount: 50, kind: 'amount' }],
    requiredAtMoveIn: true,
  },
  {
    description: 'Online Payment Convenience Fee',
    code: 'FEE-ONLINE',
    category: 'online_payment',
    tiers: [{ amount: 2.95, kind: 'amount' }],
  },
  {
    description: 'Reservation Fee',
    code: 'FEE-RESERVE',
    category: 'reservation',
    tiers: [{ amount: 15, kind: 'amount' }],
  },
  {
    description: 'Administrative Fee',
    code: 'FEE-ADMIN',
    category: 'move_in',
    tiers: [{ amount: 25, kind: 'amount' }],
    requiredAtMoveIn: true,
  },
  {
    description: 'Move-In Cleaning Deposit',
    code: 'FEE-CLEAN',
    category: 'move_in',
    tiers: [{ amount: 20, kind: 'amount' }],
  },
  {
    description: 'Transfer Fee',
    code: 'FEE-TRANSFER',
    category: 'transfer',
    tiers: [{ amount: 20, kind: 'amount' }],
    requiredAtTransfer: true,
  },
  {
    description: 'Late Fee',
    code: 'FEE-LATE',
    category: 'other',
    tiers: [
      { amount: 15, kind: 'amount', limit: null },
      { amount: 10, kind: 'percent', limit: 50 },
    ],
  },
  {
    description: 'Lien Sale Fee',
    code: 'FEE-LIEN',
    category: 'other',
    tiers: [
      { amount: 50, kind: 'amount', limit: null },
      { amount: 5, kind: 'percent', limit: 200 },
      { amount: 2.5, kind: 'percent', limit: null },
    ],
  },
  {
    description: 'Lock Cut Fee',
    code: 'FEE-LOCKCUT',
    category: 'other',
    tiers: [{ amount: 30, kind: 'amount' }],
  },
  {
    description: 'Returned Payment Fee',
    code: 'FEE-NSF',
    category: 'other',
    tiers: [{ amount: 35, kind: 'amount' }],
  },
];

export interface RetailPlan {
  description: string;
  code: string;
  price: number;
  quantity: number;
  rentalCenterEligible: boolean;
  isRentalCenterLock?: boolean;
}

export const RETAIL: RetailPlan[] = [
  {
    description: 'Disc Lock',
    code: 'RTL-DISCLOCK',
    price: 12.99,
    quantity: 40,
    rentalCenterEligible: true,
    isRentalCenterLock: true,
  },
  {
    description: 'Cylinder Lock',
    code: 'RTL-CYLLOCK',
    price: 19.99,
    quantity: 12,
    rentalCenterEligible: true,
    isRentalCenterLock: true,
  },
  {
    description: 'Small Moving Box',
    code: 'RTL-BOX-S',
    price: 2.49,
    quantity: 300,
    rentalCenterEligible: true,
  },
  {
    description: 'Medium Moving Box',
    code: 'RTL-BOX-M',
    price: 3.29,
    quantity: 250,
    rentalCenterEligible: true,
  },
  {
    description: 'Large Moving Box',
    code: 'RTL-BOX-L',
    price: 4.19,
    quantity: 180,
    rentalCenterEligible: false,
  },
  { description: 'Packing Tape', code: 'RTL-TAPE', price: 4.99, quantity: 90, rentalCenterEligible: true },
  {
    description: 'Bubble Wrap Roll',
    code: 'RTL-BUBBLE',
    price: 9.99,
    quantity: 25,
    rentalCenterEligible: false,
  },
  {
    description: 'Mattress Cover',
    code: 'RTL-MATTRESS',
    price: 7.49,
    quantity: 0,
    rentalCenterEligible: true,
  },
];

/** Extra retail variants for the first demo facility, so its item lists run past one page of 100. */
export const PACKING_COLOURS = ['Black', 'Blue', 'Green', 'Grey', 'Orange', 'Red', 'White', 'Yellow'];
export const PACKING_GOODS = [
  { description: 'Packing Paper', price: 6.5 },
  { description: 'Stretch Wrap', price: 11.25 },
  { description: 'Wardrobe Box', price: 14.99 },
  { description: 'Dish Pack Box', price: 8.75 },
  { description: 'Marker Pen', price: 1.99 },
  { description: 'Furniture Pad', price: 18 },
  { description: 'Storage Tote', price: 12.4 },
  { description: 'Label Sheet', price: 3.1 },
  { description: 'Zip Ties (50)', price: 4.25 },
  { description: 'Rope (15 m)', price: 7.8 },
  { description: 'Tarp', price: 16.95 },
  { description: 'Cable Lock', price: 9.5 },
  { description: 'Box Cutter', price: 5.45 },
];

export const DOCUMENT_BODIES = {
  rentalAgreement:
    'RENTAL AGREEMENT\n\nThis agreement is made on {{date}} between {{facility_name}} ("the Facility") and ' +
    '{{tenant_name}} ("the Tenant") for the rental of storage unit {{unit_name}}.\n\n' +
    'Rent is due on the first day of each month. The Tenant keeps the only key or code to the unit and ' +
    'stores no hazardous, perishable or illegal goods. Either party may end this agreement with ten ' +
    "days' written notice.\n\nSigned: {{tenant_name}}",
  insuranceAddendum:
    'INSURANCE ADDENDUM\n\n{{tenant_name}} elects tenant protection for unit {{unit_name}} at ' +
    '{{facility_name}}, effective {{date}}. Coverage applies to goods stored in the unit only.',
  gateAccess:
    'GATE ACCESS\n\nWelcome to {{facility_name}}, {{tenant_name}}. Your unit is {{unit_name}}. ' +
    'Gate hours are 6:00 to 22:00 every day. Your personal access code was sent separately on {{date}}.',
  marketingConsent:
    'MARKETING PREFERENCES\n\n{{tenant_name}} chose on {{date}} not to receive offers from {{facility_name}}.',
  receipt:
    'PAYMENT RECEIPT\n\n{{facility_name}} received a payment from {{tenant_name}} for unit {{unit_name}} on {{date}}.',
  retailReceipt: 'RECEIPT\n\n{{facility_name}}: retail sale on {{date}}. Thank you for your purchase.',
  moveOutStatement:
    'MOVE-OUT STATEMENT\n\n{{tenant_name}} vacated unit {{unit_name}} at {{facility_name}} on {{date}}. ' +
    'Please sign to confirm the unit was left empty and clean.',
  lockRemoval:
    'LOCK REMOVAL NOTICE\n\nThe lock on unit {{unit_name}} at {{facility_name}} was removed on {{date}}.',
  addendum:
    'ADDENDUM\n\nThis addendum to the rental agreement of {{tenant_name}} for unit {{unit_name}} at ' +
    '{{facility_name}} takes effect on {{date}}.',
};
