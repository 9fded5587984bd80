import { Field, ObjectType } from 'type-graphql';
import type { Tenant, Unit } from './tenants.types';
import { EmailAddressScalar, UUIDScalar } from '../../graphql/scalars';

@ObjectType('Tenant', { simpleResolvers: true, description: 'A tenant of a facility.' })
export class TenantObject implements Omit<Tenant, 'facilityId'> {
  @Field(() => UUIDScalar)
  id: string;

  @Field(() => String)
  firstName: string;

  @Field(() => String)
  lastName: string;

  @Field(() => EmailAddressScalar, { nullable: true })
  email: string | null;

  @Field(() => String, { nullable: true, description: 'As recorded (free text, not always E.164).' })
  phone: string | null;
}

@ObjectType('Unit', { simpleResolvers: true, description: 'A rentable unit of a facility.' })
export class UnitObject implements Pick<Unit, 'id' | 'name'> {
  @Field(() => UUIDScalar)
  id: string;

  @Field(() => String)
  name: string;
}
