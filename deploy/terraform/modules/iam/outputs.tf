output "instance_profile_name" {
  description = "Instance profile every member runs with."
  value       = aws_iam_instance_profile.node.name
}

output "role_name" {
  description = "Name of the members' IAM role (to grant it more, e.g. in a KMS key policy)."
  value       = aws_iam_role.node.name
}

output "role_arn" {
  description = "ARN of the members' IAM role (for a bucket policy or Lake Formation grants)."
  value       = aws_iam_role.node.arn
}

output "policy_ready" {
  description = "The role's inline policy name, once attached: instances depend on it so that they boot with their permissions."
  value       = aws_iam_role_policy.node.name
}
