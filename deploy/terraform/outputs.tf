output "broker_url" {
  description = "The broker's HTTP SQL endpoint (POST /query/sql), reachable from allowed_cidrs."
  value       = "http://${aws_instance.coordinator.private_ip}:${var.broker_http_port}"
}

output "coordinator_private_ip" {
  description = "Private IPv4 address of the coordinator (controller + broker)."
  value       = aws_instance.coordinator.private_ip
}

output "server_private_ips" {
  description = "Private IPv4 addresses of the servers, in server order."
  value       = aws_instance.server[*].private_ip
}

output "instance_ids" {
  description = "EC2 instance IDs, for SSM Session Manager (aws ssm start-session --target <id>)."
  value = {
    coordinator = aws_instance.coordinator.id
    servers     = aws_instance.server[*].id
  }
}

output "node_role_name" {
  description = "Name of the IAM role the instances use (to grant it more, e.g. a KMS key policy)."
  value       = aws_iam_role.node.name
}

output "cluster_security_group_id" {
  description = "Security group of every cluster member; add it to a client's rules to let cluster members in."
  value       = aws_security_group.cluster.id
}
